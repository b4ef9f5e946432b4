import { readlinkSync } from 'node:fs';
import type { Disposable } from '../../base/disposable.ts';
import { DEFAULT_COLS, DEFAULT_ROWS } from '../../protocol/methods/pane.ts';
import { screenlessTerminalPane } from '../../terminal/screenless-pane.ts';
import type { AgentService } from './agent-service.ts';
import type { Logger } from '../logger.ts';
import type { ExternalKey, PaneRecord } from '../panes/pane-record.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';

/** External panes kept at once; one more replaces the one whose agent reported least recently. */
const MAX_EXTERNAL_PANES = 64;

/**
 * Agents started outside Corral (in any terminal) whose hooks report without `CORRAL_PANE`: each
 * source and session gets a pane of its own, with no process and no screen, so that `agent list`,
 * waits and events see it like any other. The pane goes when its session is released (the agent's
 * session ended), when its reported identity expires (docs/reporting.md: 6 h after the last report, as
 * for any pane whose processes Corral cannot see), or on `pane.kill`.
 */
export class ExternalPanes implements Disposable {
  private readonly panes = new Map<string, PaneRecord>();
  private readonly lastReport = new Map<PaneRecord, number>();
  private readonly subscriptions: Disposable[];

  constructor(
    private readonly registry: PaneRegistry,
    agents: AgentService,
    private readonly log: Logger,
  ) {
    this.subscriptions = [
      registry.onRemoved((info) => {
        if (!info.external) return;
        const key = keyOf(info.external);
        const pane = this.panes.get(key);
        if (pane && pane.id === info.id) {
          this.panes.delete(key);
          this.lastReport.delete(pane);
        }
      }),
      agents.onChange((change) => {
        const { pane, record } = change;
        // Its agent is gone (released, or the identity lapsed): nothing speaks for the pane any more.
        if (pane.external === null || change.extrasOnly || record.after.agent !== null || record.before.agent === null) return;
        if (pane.lifecycle !== 'running') return;
        setImmediate(() => this.end(pane, 'its agent is no longer reported'));
      }),
    ];
  }

  /** The external pane of this source and session, if one is listed. */
  find(source: string, session: string | undefined): PaneRecord | undefined {
    return session === undefined ? undefined : this.panes.get(keyOf({ source, session }));
  }

  /**
   * The pane of this source and session, listed now if new. `reporterPid` (the socket's peer) gives the
   * pane its working folder: a hook runs where its agent runs.
   */
  paneFor(source: string, session: string, reporterPid: number | null): PaneRecord {
    const key = keyOf({ source, session });
    let pane = this.panes.get(key);
    if (pane === undefined || pane.lifecycle !== 'running') {
      if (this.panes.size >= MAX_EXTERNAL_PANES) this.evictOldest();
      const external: ExternalKey = { source, session };
      const note = `An agent started outside Corral, known from its hooks only.\nsource ${source}\nsession ${session}\n`;
      pane = this.registry.addExternal(external, cwdOf(reporterPid), screenlessTerminalPane({ note, cols: DEFAULT_COLS, rows: DEFAULT_ROWS }));
      this.panes.set(key, pane);
      this.log.info({ pane: pane.id, source, session }, 'external agent listed');
    }
    this.lastReport.set(pane, Date.now());
    return pane;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.panes.clear();
    this.lastReport.clear();
  }

  private evictOldest(): void {
    let oldest: PaneRecord | null = null;
    for (const [pane, at] of this.lastReport) if (oldest === null || at < this.lastReport.get(oldest)!) oldest = pane;
    if (oldest) this.end(oldest, `more than ${MAX_EXTERNAL_PANES} external agents; this one reported least recently`);
  }

  private end(pane: PaneRecord, why: string): void {
    if (!pane.external) return;
    const key = keyOf(pane.external);
    if (this.panes.get(key) === pane) this.panes.delete(key);
    this.lastReport.delete(pane);
    this.log.info({ pane: pane.id, why }, 'external agent removed');
    void this.registry.remove(pane);
  }
}

function keyOf(key: ExternalKey): string {
  return JSON.stringify([key.source, key.session]);
}

/** Where the reporting process runs, best effort; `/` when it cannot be read. */
function cwdOf(pid: number | null): string {
  if (pid === null) return '/';
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return '/';
  }
}
