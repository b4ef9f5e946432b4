import { rmSync } from 'node:fs';
import type { Disposable } from '../../base/disposable.ts';
import { launchDir, pruneLaunchDirs } from '../../integration/planner.ts';
import { PANE_RESPAWN } from '../../protocol/methods/pane.ts';
import type { TerminalHost } from '../../terminal/pty-host/terminal-host.ts';
import { lostTerminalPane } from '../../terminal/lost-pane.ts';
import type { DaemonCore } from '../agents/core.ts';
import type { RespawnPolicy } from '../config/config-schema.ts';
import type { PreviousLife } from '../panes/pane-record.ts';
import type { PaneMeta } from '../panes/pane-registry.ts';
import { implement, type DaemonPart } from '../rpc/handler.ts';
import { loadStoredPanes, PaneStore, type StoredPane, type StoredState } from './pane-store.ts';
import { respawnPane } from './respawn.ts';

interface PersistOptions {
  /** The registry file of this daemon's socket (`registryFilePath`). */
  path: string;
  socketPath: string;
  /** Null when panes run in this process: nothing to take back. */
  host: TerminalHost | null;
  /** Where per-launch integration keeps its files, one folder per pane (integration/planner.ts). */
  hooksDir: string | null;
  respawn: RespawnPolicy;
}

/** The registry that outlives the daemon; `store` is stopped first at a detaching stop, so the file keeps the panes. */
interface PersistPart extends DaemonPart {
  readonly store: Disposable;
}

/**
 * Takes back what the last daemon left (the panes the pty host kept, the lost ones the registry file
 * names), keeps the file in step from then on, applies the `respawn` policy, and serves `pane.respawn`.
 */
export function startPersist(core: DaemonCore, options: PersistOptions): PersistPart {
  const stored = loadStoredPanes(options.path, core.log);
  recover(core, options, stored);
  const store = new PaneStore(options.path, options.socketPath, core.registry, core.agents, core.log);
  respawnLost(core, options.respawn);
  return {
    store,
    handlers: [implement(PANE_RESPAWN, ({ target, fresh }) => respawnPane(core.registry, core.agents, core.registry.resolve(target), fresh === true))],
    dispose: () => store.dispose(),
  };
}

/**
 * Takes back the panes the pty host kept (each replays its ring into a fresh screen), and lists
 * as lost the panes the registry file knew that the host no longer holds.
 */
function recover({ registry, log }: DaemonCore, { host, hooksDir }: PersistOptions, stored: StoredState | null): void {
  const started = Date.now();
  const previous = new Map<string, StoredPane>((stored?.panes ?? []).map((pane) => [pane.id, pane]));
  for (const { meta, pane } of host?.recovered ?? []) {
    const paneMeta = meta as PaneMeta;
    const known = previous.get(paneMeta.id);
    previous.delete(paneMeta.id);
    const record = registry.adopt(known ? { ...paneMeta, previous: lifeOf(known) } : paneMeta, pane);
    if (hooksDir !== null) record.onExit(() => rmSync(launchDir(hooksDir, record.id), { recursive: true, force: true }));
    if (pane.dropped > 0) log.warn({ pane: record.id, droppedBytes: pane.dropped, ringBytes: host!.ringBytes }, 'output dropped while no daemon was attached');
  }
  for (const pane of previous.values()) {
    if (pane.state === 'exited') continue;
    const note = `[corral] pane ${pane.id} was lost: the process holding its terminal went away.\nRun \`corral pane respawn ${pane.id}\` to start it again.`;
    try {
      registry.addLost({ ...pane, previous: lifeOf(pane) }, lostTerminalPane({ pid: pane.pid, cols: pane.cols, rows: pane.rows, note }));
    } catch (error) {
      // A registry file edited by hand can name a lost pane by a recovered pane's name.
      log.warn({ pane: pane.id, name: pane.name, err: error }, 'pane of the state file not listed: its id or name is taken');
      continue;
    }
    log.warn({ pane: pane.id, name: pane.name, agent: pane.agent, session: pane.session }, 'pane lost');
  }
  if (stored) registry.reserveIds(stored.nextPane);
  if (hooksDir !== null) pruneLaunchDirs(hooksDir, (host?.recovered ?? []).map(({ meta }) => (meta as PaneMeta).id));
  const recovered = host?.recovered ?? [];
  if (recovered.length > 0) {
    void Promise.all(recovered.map(({ pane }) => pane.replayed)).then(() => log.info({ panes: recovered.length, ms: Date.now() - started }, 'panes recovered'));
  }
}

/** Applies the `respawn` config to the lost panes at start. */
function respawnLost({ registry, agents, log }: DaemonCore, policy: RespawnPolicy): void {
  const lost = registry.list().filter((pane) => pane.lifecycle === 'lost');
  if (policy === 'never') return;
  for (const pane of lost) {
    if (policy === 'ask') {
      log.warn({ pane: pane.id, name: pane.name }, `pane lost; run \`corral pane respawn ${pane.id}\` to start it again`);
      continue;
    }
    respawnPane(registry, agents, pane).then(
      (info) => log.info({ pane: info.id, resumed: info.resumed }, 'lost pane respawned'),
      (error: unknown) => log.error({ pane: pane.id, err: error }, 'cannot respawn a lost pane'),
    );
  }
}

function lifeOf(pane: StoredPane): PreviousLife {
  return { agent: pane.agent, state: pane.agentState, session: pane.session, arbiter: pane.arbiter };
}
