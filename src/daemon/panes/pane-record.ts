import { CorralError } from '../../protocol/errors.ts';
import type { PaneDetail, PaneInfo, PaneLifecycle, PaneProcess } from '../../protocol/methods/pane.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import type { ExitInfo, ForegroundProcess, OscEvent, TerminalPane } from '../../terminal/types.ts';
import { Emitter } from '../../base/emitter.ts';
import type { ArbiterMemory } from '../../arbiter/index.ts';
import type { Logger } from '../logger.ts';
import { LimitedLog } from '../limited-log.ts';

/** A typed key for something hung on each pane (an arbiter, a detector); created once per kind. */
export class PaneSlot<T extends Disposable> {
  declare private readonly _type: T;
  constructor(readonly name: string) {}
}

export interface PaneIdentity {
  id: string;
  name: string | null;
  workspace: string;
  command: string;
  args: string[];
  cwd: string;
}

/** What a previous daemon knew of a pane: its agent, last state and session, and its arbiter's memory. */
export interface PreviousLife {
  agent: string | null;
  state: string;
  session: string | null;
  arbiter: ArbiterMemory | null;
}

interface PaneOrigin {
  createdAt?: number;
  recovered?: boolean;
  /** The environment the spawn asked for, without secrets (kept for a respawn). */
  env?: Record<string, string>;
  /** The names of the keys left out of `env` as secrets (daemon/panes/secrets.ts). */
  droppedEnv?: readonly string[];
  previous?: PreviousLife | null;
  /** An agent started outside Corral that reports through its hooks: the pane has no process and no screen. */
  external?: ExternalKey | null;
  /** false: started without Corral's hooks (`--no-integrate`). */
  integrate?: boolean;
}

/** What names an external pane: the reporting source and the agent's session. */
export interface ExternalKey {
  source: string;
  session: string;
}

/**
 * One pane as the daemon owns it: the terminal, its lifecycle and everything hung on it.
 * Subscriptions and attachments made through the record are disposed with it, in reverse order.
 */
export class PaneRecord implements Disposable {
  readonly createdAt: number;
  /** Whether this pane outlived a previous daemon and was taken back from the pty host. */
  readonly recovered: boolean;
  readonly env: Record<string, string>;
  readonly droppedEnv: readonly string[];
  /** Set on a pane a previous daemon owned (recovered or lost). */
  readonly previous: PreviousLife | null;
  /** Set on an external pane (hook reports without a pane of their own). */
  readonly external: ExternalKey | null;
  /** Whether the agent was started with Corral's hooks allowed; a respawn starts it the same way. */
  readonly integrate: boolean;
  private current: PaneLifecycle = 'running';
  private exitInfo: ExitInfo | null = null;
  private exitedAt: number | null = null;
  private readonly owned: DisposableStore;
  private readonly slots = new Map<PaneSlot<Disposable>, Disposable>();
  private readonly exited: Emitter<PaneRecord>;
  private readonly typed: Emitter<string>;
  /** This pane's warnings that may repeat, rate-limited: never a flood, never the pane's output. */
  readonly warnings: LimitedLog;

  constructor(
    readonly identity: PaneIdentity,
    readonly terminal: TerminalPane,
    private readonly log: Logger,
    origin: PaneOrigin = {},
  ) {
    this.createdAt = origin.createdAt ?? Date.now();
    this.recovered = origin.recovered ?? false;
    this.env = origin.env ?? {};
    this.droppedEnv = origin.droppedEnv ?? [];
    this.previous = origin.previous ?? null;
    this.external = origin.external ?? null;
    this.integrate = origin.integrate ?? true;
    this.exited = new Emitter((error) => log.error({ err: error, pane: identity.id }, 'pane exit listener failed'));
    this.typed = new Emitter((error) => log.error({ err: error, pane: identity.id }, 'pane input listener failed'));
    this.owned = new DisposableStore((error) => log.error({ err: error, pane: identity.id }, 'pane disposable failed'));
    this.warnings = new LimitedLog(log, { pane: identity.id });
    this.own(terminal.onEmulatorLog((entry) => this.warnings[entry.level]({}, `terminal emulator: ${entry.message}`)));
    this.own(terminal.onExit((info) => this.markExited(info)));
    if (terminal.exited) this.markExited(terminal.exited);
  }

  get id(): string {
    return this.identity.id;
  }

  get name(): string | null {
    return this.identity.name;
  }

  get lifecycle(): PaneLifecycle {
    return this.current;
  }

  get exit(): ExitInfo | null {
    return this.exitInfo;
  }

  /** Hook: after each batch of output has been parsed into the screen. */
  onOutput(listener: () => void): Disposable {
    return this.own(this.terminal.onOutput(listener));
  }

  /** Hook: each OSC sequence the program emits, in stream order. */
  onOsc(listener: (event: OscEvent) => void): Disposable {
    return this.own(this.terminal.onOsc(listener));
  }

  /** Writes input to the program; every input the daemon gives a pane goes through here. */
  write(data: string): void {
    this.terminal.write(data);
    this.typed.fire(data);
  }

  /** Hook: each input written to the program (what a recording with input keeps). */
  onInput(listener: (data: string) => void): Disposable {
    return this.own(this.typed.event(listener));
  }

  /** Hook: once, after the stream closed and the state is `exited`; the last screen stays readable. */
  onExit(listener: (pane: PaneRecord) => void): Disposable {
    return this.own(this.exited.event(listener));
  }

  /** Ties a disposable to this pane's life. */
  own<T extends Disposable>(disposable: T): T {
    return this.owned.add(disposable);
  }

  /** Hangs one value of a kind on this pane, owned by it. */
  hang<T extends Disposable>(slot: PaneSlot<T>, value: T): T {
    if (this.slots.has(slot)) throw new Error(`pane ${this.id} already has ${slot.name}`);
    this.slots.set(slot, value);
    return this.own(value);
  }

  get<T extends Disposable>(slot: PaneSlot<T>): T | undefined {
    return this.slots.get(slot) as T | undefined;
  }

  assertRunning(): void {
    if (this.external !== null) {
      throw new CorralError('pane_external', `pane ${this.label()} is an agent started outside Corral, known from its hooks only: it has no terminal`, { id: this.id });
    }
    if (this.current === 'lost') {
      throw new CorralError('pane_exited', `pane ${this.label()} is lost (its pty host went away); respawn it with \`corral pane respawn ${this.id}\``, { id: this.id });
    }
    if (this.current === 'exited') {
      throw new CorralError(
        'pane_exited',
        `pane ${this.label()} has exited (code ${this.exitInfo?.exitCode ?? 'none'}); read it, or kill it to remove it`,
        { id: this.id },
      );
    }
  }

  label(): string {
    return this.name ? `${this.id} (${this.name})` : this.id;
  }

  info(): PaneInfo {
    const { id, name, workspace, command, cwd } = this.identity;
    return {
      id,
      name,
      workspace,
      state: this.current,
      command,
      cwd,
      pid: this.terminal.pid,
      cols: this.terminal.cols,
      rows: this.terminal.rows,
      createdAt: this.createdAt,
      exitedAt: this.exitedAt,
      exitCode: this.exitInfo?.exitCode ?? null,
      signal: this.exitInfo?.signal ?? null,
      ...(this.recovered ? { recovered: true } : {}),
      ...(this.external !== null ? { external: { ...this.external } } : {}),
      ...(this.current === 'lost' && this.previous ? { previous: { agent: this.previous.agent, state: this.previous.state, session: this.previous.session } } : {}),
    };
  }

  detail(): PaneDetail {
    const process = this.current === 'running' ? describeForeground(this.terminal.foreground()) : null;
    const env = { env: { ...this.env }, ...(this.droppedEnv.length > 0 ? { droppedEnv: [...this.droppedEnv] } : {}) };
    return { ...this.info(), args: this.identity.args, ...env, process, title: this.terminal.osc.title?.value ?? null };
  }

  /** Like dispose, but the pane's processes keep running where the pty host holds them. */
  detach(): void {
    this.release();
    if (this.terminal.detach) this.terminal.detach();
    else this.terminal.dispose();
  }

  dispose(): void {
    if (this.release()) this.terminal.dispose();
  }

  private release(): boolean {
    if (this.owned.isDisposed) return false;
    this.owned.dispose();
    this.slots.clear();
    this.exited.dispose();
    this.typed.dispose();
    return true;
  }

  private markExited(info: ExitInfo): void {
    if (this.current !== 'running') return;
    this.current = info.lost ? 'lost' : 'exited';
    this.exitInfo = info;
    this.exitedAt = Date.now();
    if (info.lost) this.log.warn({ pane: this.id }, 'pane lost: the process holding its PTY went away');
    else this.log.info({ pane: this.id, exitCode: info.exitCode, signal: info.signal }, 'pane exited');
    this.exited.fire(this);
  }
}

function describeForeground(foreground: ForegroundProcess | null): PaneProcess | null {
  if (!foreground) return null;
  const main = foreground.leader ?? foreground.members[0];
  if (!main) return null;
  const hint = [main, ...foreground.members].find((m) => m.agentHint !== null)?.agentHint;
  return {
    pgid: foreground.pgid,
    pid: main.pid,
    exe: main.exe,
    argv: main.argv,
    ...(hint ? { agentHint: hint } : {}),
  };
}
