import type { ArbiterMemory } from '../../arbiter/index.ts';
import type { Disposable } from '../../base/disposable.ts';
import type { AgentService } from '../agents/agent-service.ts';
import type { Logger } from '../logger.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import { STATE_FILE_VERSION, readPrivateFile, setAsidePrivateFile, writePrivateFile, type UnusableReason } from '../private-file.ts';
import { checkStoredState, type StoredPane, type StoredState } from './stored-shape.ts';

export type { StoredPane, StoredState } from './stored-shape.ts';

/**
 * Reads the state file. One that cannot be used (not a regular file, a link, too large, unreadable,
 * a loose mode, another owner, bad JSON, another version or shape) is moved aside with a timestamp
 * and the log says why; the daemon starts without it. Panes of a wrong shape are left out, and the
 * file is moved aside too, so that what they held is not lost to the next write.
 */
export function loadStoredPanes(path: string, log: Logger): StoredState | null {
  const read = readPrivateFile(path);
  if (read.status === 'absent') return null;
  if (read.status === 'unusable') {
    setAside(path, log, read.reason, read.detail);
    return null;
  }
  const checked = checkStoredState(read.value);
  if (typeof checked === 'string') {
    setAside(path, log, 'wrong_shape', `${path}: ${checked}`);
    return null;
  }
  if (checked.problems.length > 0) setAside(path, log, 'wrong_shape', `${path}: ${checked.problems.length} of its panes left out: ${checked.problems.slice(0, 5).join('; ')}`, checked.state.panes.length);
  return checked.state;
}

function setAside(path: string, log: Logger, reason: UnusableReason, detail: string, panesKept = 0): void {
  try {
    const movedTo = setAsidePrivateFile(path);
    log.warn({ file: path, movedTo, reason, detail, panesKept }, panesKept > 0 ? 'state file partly unusable: moved aside, starting with the panes it could use' : 'state file unusable: moved aside, starting without it');
  } catch (error) {
    log.error({ file: path, reason, detail, err: error }, 'state file unusable and cannot be moved aside: starting without it');
  }
}

/**
 * Keeps the state file in step with the panes: rewritten atomically after every change (pane created,
 * exited, removed, agent state changed, report accepted), at most once per turn of the event loop.
 */
export class PaneStore implements Disposable {
  private scheduled: NodeJS.Immediate | null = null;
  private readonly subscriptions: Disposable[];
  private disposed = false;

  constructor(
    private readonly path: string,
    private readonly socket: string,
    private readonly registry: PaneRegistry,
    private readonly agents: AgentService,
    private readonly log: Logger,
  ) {
    const changed = () => this.schedule();
    this.subscriptions = [registry.onCreated(changed), registry.onExited(changed), registry.onRemoved(changed), agents.onChange(changed), agents.onReportAccepted(changed)];
    this.flush();
  }

  /** Writes now if a write is due (before the daemon lets go of its panes). */
  flush(): void {
    if (this.scheduled !== null) clearImmediate(this.scheduled);
    this.scheduled = null;
    try {
      writePrivateFile(this.path, this.snapshot());
    } catch (error) {
      this.log.error({ file: this.path, err: error }, 'cannot write the state file');
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.scheduled !== null) this.flush();
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private schedule(): void {
    if (this.disposed || this.scheduled !== null) return;
    this.scheduled = setImmediate(() => this.flush());
  }

  private snapshot(): StoredState {
    return { version: STATE_FILE_VERSION, socket: this.socket, savedAt: Date.now(), nextPane: this.registry.nextId, panes: this.registry.list().filter((pane) => pane.external === null).map((pane) => this.store(pane)) };
  }

  private store(pane: PaneRecord): StoredPane {
    const info = pane.info();
    let agent: string | null = null;
    let agentState = 'unknown';
    let session: string | null = null;
    let arbiter: ArbiterMemory | null = null;
    if (pane.lifecycle === 'lost' && pane.previous) {
      ({ agent, state: agentState, session, arbiter } = pane.previous);
    } else {
      try {
        const tracker = this.agents.of(pane);
        const view = tracker.view();
        const last = tracker.arbiter.lastSession;
        agent = view.agent ?? last?.agent ?? null;
        // An agent whose process ended (its PTY gone with a killed host, say) keeps its final state.
        const released = tracker.arbiter.lastReleased;
        agentState = view.agent === null && released !== null && released.agent === agent ? released.state : view.displayed;
        // A pane whose agent exited keeps the last session it had, for a respawn to resume.
        session = tracker.arbiter.session ?? last?.session ?? null;
        arbiter = tracker.arbiter.memory();
      } catch {
        // no tracker yet
      }
      if (agent === null && session === null && pane.previous) ({ agent, session } = { agent: pane.previous.agent, session: pane.previous.session });
    }
    return {
      id: info.id,
      name: info.name,
      workspace: info.workspace,
      command: info.command,
      args: pane.identity.args,
      cwd: info.cwd,
      env: pane.env,
      ...(pane.droppedEnv.length > 0 ? { droppedEnv: [...pane.droppedEnv] } : {}),
      cols: info.cols,
      rows: info.rows,
      createdAt: info.createdAt,
      pid: info.pid,
      state: info.state,
      agent,
      agentState,
      session,
      arbiter,
      ...(pane.integrate ? {} : { integrate: false as const }),
    };
  }
}
