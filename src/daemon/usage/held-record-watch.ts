import type { Disposable } from '../../base/disposable.ts';
import type { AgentService } from '../agents/agent-service.ts';
import type { Logger } from '../logger.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import { copilotRecordOf } from './copilot-sessions.ts';
import type { RecordFormat } from './record-formats.ts';

/** How often each such agent's process is looked at: a session it opens is read within this long. */
export const HELD_RECORD_POLL_MS = 1000;

/**
 * Agents whose record no hook names, found from the agent's live process instead: its pid and the
 * pane's process pid in, the record's path out (or null).
 */
const HELD_RECORDS: Record<string, { format: RecordFormat; find: (agentPid: number, panePid: number) => Promise<string | null> }> = {
  copilot: { format: 'copilot', find: copilotRecordOf },
};

/**
 * Names a pane's record from its agent's live process, for the agents of HELD_RECORDS (docs/usage.md,
 * "Which Copilot CLI session is the pane's"): every HELD_RECORD_POLL_MS, each running pane whose live
 * process is such an agent is looked at, and the record it holds is followed as a hook's would be.
 * One look at a time; a pane gone meanwhile is left.
 */
export class HeldRecordWatch implements Disposable {
  private readonly timer: NodeJS.Timeout;
  private looking = false;
  private disposed = false;

  constructor(
    private readonly options: {
      registry: PaneRegistry;
      agents: AgentService;
      log: Logger;
      follow: (pane: PaneRecord, format: RecordFormat, path: string) => void;
    },
  ) {
    this.timer = setInterval(() => void this.look(), HELD_RECORD_POLL_MS);
    this.timer.unref();
  }

  dispose(): void {
    this.disposed = true;
    clearInterval(this.timer);
  }

  private async look(): Promise<void> {
    if (this.looking || this.disposed) return;
    this.looking = true;
    try {
      for (const pane of this.options.registry.list()) {
        if (pane.lifecycle !== 'running') continue;
        const process = this.options.agents.find(pane)?.agentProcess() ?? null;
        const held = process === null ? undefined : HELD_RECORDS[process.agent];
        if (process === null || held === undefined) continue;
        const path = await held.find(process.pid, pane.terminal.pid);
        if (path !== null && !this.disposed && this.options.registry.get(pane.id) === pane && pane.lifecycle === 'running') this.options.follow(pane, held.format, path);
      }
    } catch (error) {
      this.options.log.warn({ err: error }, 'cannot look for the records agents hold');
    } finally {
      this.looking = false;
    }
  }
}
