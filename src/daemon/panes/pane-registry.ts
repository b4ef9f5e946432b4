import { CorralError } from '../../protocol/errors.ts';
import { DEFAULT_COLS, DEFAULT_ROWS, type PaneInfo } from '../../protocol/methods/pane.ts';
import type { Disposable } from '../../base/disposable.ts';
import type { PaneSpawnOptions, TerminalPane } from '../../terminal/types.ts';
import { Emitter } from '../../base/emitter.ts';
import type { Logger } from '../logger.ts';
import { PaneRecord, type ExternalKey, type PaneIdentity, type PreviousLife } from './pane-record.ts';
import { withoutSecrets } from './secrets.ts';
import { checkSpawnable } from './spawn-check.ts';
import { loginEnvironment } from './pane-env.ts';
import type { LaunchPlanner } from '../../integration/planner.ts';

/** What the daemon stores with a pane where its PTY lives, to know it again after a restart. */
export interface PaneMeta extends PaneIdentity {
  createdAt: number;
  /** The environment the spawn asked for, without secrets. */
  env: Record<string, string>;
  /** The names of the keys left out of `env` as secrets; absent when none were. */
  droppedEnv?: string[];
  cols?: number;
  rows?: number;
  previous?: PreviousLife | null;
  /** false: started without Corral's hooks (`--no-integrate`); a respawn keeps that. */
  integrate?: false;
}

/** A pane a previous daemon owned whose PTY is gone (from the state file). */
interface LostPaneMeta extends PaneMeta {
  pid: number;
  cols: number;
  rows: number;
}

interface SpawnOptions {
  /** Reuse this id (a respawn); it must be free. */
  id?: string;
  /** The arguments of this start only (the resume form in place: src/integration/resume-launch.ts); the pane keeps `args`. */
  startArgs?: string[];
  previous?: PreviousLife | null;
  /** A respawn: the keys the pane's first start had that were not kept as secrets. */
  droppedEnv?: readonly string[];
}

/** Starts a pane's terminal: in the pty host (the daemon's own), or in this process (tests, benches). */
export type SpawnTerminal = (options: PaneSpawnOptions, meta: PaneMeta) => TerminalPane | Promise<TerminalPane>;

interface SpawnRequest {
  command: string;
  args?: string[];
  name?: string;
  /** The workspace (created on first use); default `w1`. It is the first part of the pane's id. */
  workspace?: string;
  cwd?: string;
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  /** false: start the agent without Corral's hooks (`--no-integrate`). */
  integrate?: boolean;
  /** The calling shell's PATH and folder (the CLI sends them), used unless `[panes] use_caller = false`. */
  caller?: { path?: string; cwd?: string };
}

/** The workspace of a pane spawned without one. A pane's id is `<workspace>:p<n>`, n unique in the daemon. */
const WORKSPACE = 'w1';
/** The workspace of the panes of agents started outside Corral. */
const EXTERNAL_WORKSPACE = 'external';

/**
 * Every pane the daemon owns, by id and by name. Ids are never reused in a daemon's life.
 * Hooks: `onCreated` fires before `pane.spawn` answers (hang per-pane parts there),
 * `onExited` once when a pane's process has gone (after its `onCreated`, also when it ended before
 * its spawn was answered), `onRemoved` after it is killed and disposed.
 */
export class PaneRegistry implements Disposable {
  private readonly panes = new Map<string, PaneRecord>();
  private readonly byName = new Map<string, PaneRecord>();
  private readonly removals = new Map<string, Promise<PaneInfo>>();
  /** Names of panes being spawned, so that two spawns cannot both take a name. */
  private readonly reserved = new Set<string>();
  private nextPane = 1;
  private readonly created: Emitter<PaneRecord>;
  private readonly exited: Emitter<PaneRecord>;
  private readonly removed: Emitter<PaneInfo>;

  /** Adds the agent's own hooks to a launch (set by the daemon; none by default). */
  planLaunch: LaunchPlanner | null = null;
  /** Whether a spawn's `caller` (the CLI's PATH and folder) is used: `[panes] use_caller` (docs/config.md). */
  useCaller = true;
  /** The daemon's variables a pane also starts with: `[panes] pass_env` (docs/config.md). */
  passEnv: readonly string[] = [];

  constructor(
    private readonly spawnTerminal: SpawnTerminal,
    private readonly socketPath: string,
    private readonly log: Logger,
  ) {
    const onError = (error: unknown) => log.error({ err: error }, 'pane registry listener failed');
    this.created = new Emitter(onError);
    this.exited = new Emitter(onError);
    this.removed = new Emitter(onError);
  }

  get size(): number {
    return this.panes.size;
  }

  list(): PaneRecord[] {
    return [...this.panes.values()];
  }

  onCreated(listener: (pane: PaneRecord) => void): Disposable {
    return this.created.event(listener);
  }

  onExited(listener: (pane: PaneRecord) => void): Disposable {
    return this.exited.event(listener);
  }

  onRemoved(listener: (pane: PaneInfo) => void): Disposable {
    return this.removed.event(listener);
  }

  /** The pane with this id (`w1:p3`), or undefined. */
  get(id: string): PaneRecord | undefined {
    return this.panes.get(id);
  }

  /** An id (`w1:p3`) or a name; throws `pane_not_found` for a client's target that names no pane. */
  resolve(target: string): PaneRecord {
    const pane = this.panes.get(target) ?? this.byName.get(target);
    if (!pane) {
      throw new CorralError('pane_not_found', `no pane has id or name "${target}"; run \`corral pane list\``, { target });
    }
    return pane;
  }

  /**
   * Like resolve, once the pane's screen is replayed: a read of a pane just taken back from the pty
   * host must not see half of its ring. The pane is looked up again after the wait (it may be gone).
   */
  async resolveReplayed(target: string): Promise<PaneRecord> {
    const pane = this.resolve(target);
    if (pane.terminal.replayed === undefined) return pane;
    await pane.terminal.replayed;
    return this.resolve(pane.id);
  }

  async spawn(request: SpawnRequest, options: SpawnOptions = {}): Promise<PaneRecord> {
    if (request.name !== undefined && (this.byName.has(request.name) || this.reserved.has(request.name))) {
      const holder = this.byName.get(request.name);
      throw new CorralError('name_taken', `name "${request.name}" is used by pane ${holder?.id ?? '(starting)'}; pick another or kill that pane`, {
        name: request.name,
        id: holder?.id ?? null,
      });
    }
    if (options.id !== undefined && this.panes.has(options.id)) throw new Error(`pane id ${options.id} is in use`);
    const workspace = request.workspace ?? WORKSPACE;
    const id = options.id ?? `${workspace}:p${this.nextPane}`;
    request = this.withCaller(request);
    const cwd = request.cwd ?? process.env.HOME ?? '/';
    refuseNul(request);
    const env = this.paneEnv(id, request.env ?? {});
    checkSpawnable(request.command, cwd, env, request.args ?? []);
    if (options.id === undefined) this.nextPane += 1;
    const identity: PaneIdentity = { id, name: request.name ?? null, workspace, command: request.command, args: request.args ?? [], cwd };
    const kept = withoutSecrets(request.env ?? {});
    const dropped = [...new Set([...(options.droppedEnv ?? []), ...kept.dropped])];
    // A respawn passes on what the daemon's own environment has; the rest of the secrets are gone.
    const missing = (options.droppedEnv ?? []).filter((key) => env[key] === undefined);
    if (missing.length > 0) this.log.warn({ pane: id, keys: missing }, 'pane started again without environment keys kept out of the state file as secrets');
    const meta: PaneMeta = {
      ...identity,
      createdAt: Date.now(),
      env: kept.env,
      ...(dropped.length > 0 ? { droppedEnv: dropped } : {}),
      previous: options.previous ?? null,
      ...(request.integrate === false ? { integrate: false as const } : {}),
    };
    if (identity.name !== null) this.reserved.add(identity.name);
    const startArgs = options.startArgs ?? request.args ?? [];
    const plan = this.planLaunch?.({ command: request.command, args: startArgs, env }, id, request.integrate !== false);
    let terminal: TerminalPane;
    try {
      terminal = await this.spawnTerminal(
        {
          command: request.command,
          args: plan?.launch.args ?? startArgs,
          cwd,
          env: plan?.launch.env ?? env,
          cols: request.cols ?? DEFAULT_COLS,
          rows: request.rows ?? DEFAULT_ROWS,
        },
        meta,
      );
    } catch (error) {
      plan?.dispose();
      throw new CorralError('spawn_failed', `cannot start "${request.command}": ${(error as Error).message}`, {
        command: request.command,
      });
    } finally {
      if (identity.name !== null) this.reserved.delete(identity.name);
    }
    const pane = this.add(meta, terminal, false);
    if (plan && pane.lifecycle === 'running') pane.onExit(() => plan.dispose());
    else plan?.dispose();
    return pane;
  }

  /**
   * Takes back a pane that outlived the previous daemon (its PTY in the pty host): same id, name,
   * command and cwd. Ids go on after the highest one seen, so none is reused.
   */
  adopt(meta: PaneMeta, terminal: TerminalPane): PaneRecord {
    const number = Number(/:p(\d+)$/.exec(meta.id)?.[1] ?? 0);
    this.nextPane = Math.max(this.nextPane, number + 1);
    return this.add(meta, terminal, true);
  }

  /** Lists a pane whose PTY is gone with its holder: state `lost`, with its last state and session. */
  addLost(meta: LostPaneMeta, terminal: TerminalPane): PaneRecord {
    if (this.panes.has(meta.id) || (meta.name !== null && this.byName.has(meta.name))) throw new Error(`pane ${meta.id} is listed already`);
    const number = Number(/:p(\d+)$/.exec(meta.id)?.[1] ?? 0);
    this.nextPane = Math.max(this.nextPane, number + 1);
    return this.add(meta, terminal, false);
  }

  /**
   * Lists an agent started outside Corral, known from its hook reports only: a pane of the `external`
   * workspace with no process and a screen that says so (docs/reporting.md, "Agents started outside Corral").
   */
  addExternal(key: ExternalKey, cwd: string, terminal: TerminalPane): PaneRecord {
    const id = `${EXTERNAL_WORKSPACE}:p${this.nextPane}`;
    this.nextPane += 1;
    const identity: PaneIdentity = { id, name: null, workspace: EXTERNAL_WORKSPACE, command: key.source, args: [], cwd };
    return this.add({ ...identity, createdAt: Date.now(), env: {} }, terminal, false, key);
  }

  /** Ids of new panes start after `next` at least (the numbers the state file remembers). */
  reserveIds(next: number): void {
    this.nextPane = Math.max(this.nextPane, next);
  }

  get nextId(): number {
    return this.nextPane;
  }

  private add(meta: PaneMeta, terminal: TerminalPane, recovered: boolean, external: ExternalKey | null = null): PaneRecord {
    const { id, name, workspace, command, args, cwd } = meta;
    const identity: PaneIdentity = { id, name, workspace, command, args, cwd };
    const pane = new PaneRecord(identity, terminal, this.log, {
      createdAt: meta.createdAt,
      recovered,
      env: meta.env ?? {},
      droppedEnv: meta.droppedEnv ?? [],
      previous: meta.previous ?? null,
      external,
      integrate: meta.integrate !== false,
    });
    this.panes.set(identity.id, pane);
    if (identity.name !== null) this.byName.set(identity.name, pane);
    pane.onExit(() => this.exited.fire(pane));
    this.log.info({ pane: identity.id, name: identity.name, command: identity.command, pid: terminal.pid, ...(recovered ? { recovered } : {}) }, recovered ? 'pane recovered' : 'pane spawned');
    this.created.fire(pane);
    // A program may end before its pane is made (the host's exit comes with its answer to the spawn):
    // that exit is told now, after the creation, as every other exit is.
    if (pane.lifecycle === 'exited') this.exited.fire(pane);
    return pane;
  }

  /** Ends the pane's process group if it runs (the terminal's one policy), then forgets the pane. */
  remove(pane: PaneRecord): Promise<PaneInfo> {
    const pending = this.removals.get(pane.id);
    if (pending) return pending;
    const removal = (async () => {
      if (pane.lifecycle === 'running') await pane.terminal.terminate();
      const info = pane.info();
      this.panes.delete(pane.id);
      if (pane.name !== null && this.byName.get(pane.name) === pane) this.byName.delete(pane.name);
      pane.dispose();
      this.log.info({ pane: pane.id }, 'pane removed');
      this.removed.fire(info);
      return info;
    })().finally(() => this.removals.delete(pane.id));
    this.removals.set(pane.id, removal);
    return removal;
  }

  /** Whether the pane is being removed (`pane.kill`, a respawn, `[panes] keep_exited`): its exit now is Corral's doing. */
  isRemoving(id: string): boolean {
    return this.removals.has(id);
  }

  /** Removes every pane, ending all process groups at once. */
  async removeAll(): Promise<void> {
    await Promise.allSettled(this.list().map((pane) => this.remove(pane)));
  }

  /** Lets go of every pane and leaves its processes running where the pty host keeps them. */
  detachAll(): void {
    for (const pane of this.list()) pane.detach();
    this.panes.clear();
    this.byName.clear();
  }

  /**
   * The caller's folder stands in for a missing `cwd`, and its PATH for a missing `env.PATH`, as a
   * terminal multiplexer's new window takes its client's: `claude` is looked up where the user has it.
   * The PATH goes into the request's env, so a respawn finds the command the same way.
   */
  private withCaller(request: SpawnRequest): SpawnRequest {
    const { caller, ...rest } = request;
    if (!caller || !this.useCaller) return rest;
    return {
      ...rest,
      ...(rest.cwd === undefined && caller.cwd !== undefined ? { cwd: caller.cwd } : {}),
      ...(caller.path !== undefined && rest.env?.PATH === undefined ? { env: { PATH: caller.path, ...rest.env } } : {}),
    };
  }

  dispose(): void {
    for (const pane of this.list()) pane.dispose();
    this.panes.clear();
    this.byName.clear();
    this.created.dispose();
    this.exited.dispose();
    this.removed.dispose();
  }

  /** The login's variables, then what the spawn passed, then what Corral itself needs in a pane. */
  private paneEnv(id: string, extra: Record<string, string>): Record<string, string> {
    return {
      ...loginEnvironment(process.env, this.passEnv),
      ...extra,
      CORRAL_SOCKET: this.socketPath,
      CORRAL_PANE: id,
      TERM: 'xterm-256color',
      COLORTERM: 'truecolor',
    };
  }
}

/** A NUL cannot pass through exec: the kernel would cut the string there (`echo a\0b` ran `echo a`). */
function refuseNul(request: { command: string; args?: readonly string[]; cwd?: string; env?: Record<string, string> }): void {
  const fields: Array<[string, string]> = [['command', request.command], ...(request.args ?? []).map((arg, i): [string, string] => [`args[${i}]`, arg])];
  if (request.cwd !== undefined) fields.push(['cwd', request.cwd]);
  for (const [key, value] of Object.entries(request.env ?? {})) fields.push([`env.${key}`, `${key}=${value}`]);
  const bad = fields.find(([, value]) => value.includes('\0'));
  if (bad) throw new CorralError('invalid_params', `${bad[0]} holds a NUL character, which exec cannot pass; remove it`, { field: bad[0] });
}
