import type { ArbiterMemory } from '../../arbiter/index.ts';
import type { PaneLifecycle } from '../../protocol/methods/pane.ts';
import type { Disposable } from '../../base/disposable.ts';
import type { AgentService } from '../agents/agent-service.ts';
import type { Logger } from '../logger.ts';
import type { PaneRecord } from '../pane-record.ts';
import type { PaneRegistry } from '../pane-registry.ts';
import { STATE_FILE_VERSION, readStateFile, writeStateFile } from './state-file.ts';

/** One pane as the state file keeps it. */
export interface StoredPane {
  id: string;
  name: string | null;
  workspace: string;
  command: string;
  args: string[];
  cwd: string;
  /** The environment the spawn asked for, without secrets (see secrets.ts). */
  env: Record<string, string>;
  cols: number;
  rows: number;
  createdAt: number;
  pid: number;
  state: PaneLifecycle;
  agent: string | null;
  agentState: string;
  session: string | null;
  arbiter: ArbiterMemory | null;
  /** false: the pane was started with `--no-integrate`. */
  integrate?: false;
}

export interface StoredState {
  version: number;
  socket: string;
  savedAt: number;
  /** The next pane number, so that no id is reused across restarts. */
  nextPane: number;
  panes: StoredPane[];
}

/** Reads the state file; a broken or foreign one is logged and ignored (the next write replaces it). */
export function loadPaneState(path: string, log: Logger): StoredState | null {
  let value: unknown;
  try {
    value = readStateFile(path);
  } catch (error) {
    log.warn({ file: path, err: error }, 'state file unreadable: starting without it');
    return null;
  }
  if (value === null) return null;
  const state = value as Partial<StoredState>;
  if (state.version !== STATE_FILE_VERSION || !Array.isArray(state.panes) || !Number.isSafeInteger(state.nextPane)) {
    log.warn({ file: path, version: state.version }, 'state file of another version or shape: starting without it');
    return null;
  }
  const panes = state.panes.filter((pane): pane is StoredPane => typeof pane?.id === 'string' && typeof pane.command === 'string' && Array.isArray(pane.args) && typeof pane.cwd === 'string');
  return { ...(state as StoredState), panes };
}

/**
 * Keeps the state file in step with the panes: rewritten atomically after every change (pane created,
 * exited, removed, agent state changed, report accepted), at most once per turn of the event loop.
 */
export class PaneStateStore implements Disposable {
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
      writeStateFile(this.path, this.snapshot());
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
    if (pane.state === 'lost' && pane.previous) {
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
