import { readFileSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { DisposableStore, type Disposable } from '../base/disposable.ts';
import { launchFilesDir, launchPlanner, type LaunchPlanner } from '../integration/planner.ts';
import { ManifestSet, type ManifestSetOptions } from '../manifest-store/manifest-set.ts';
import { CorralError } from '../protocol/errors.ts';
import { AGENT_ANSWER } from '../protocol/methods/agent-act.ts';
import { MAX_FRAME_BYTES } from '../protocol/framing.ts';
import { acceptEveryWaiting } from './rpc/accept-backlog.ts';
import type { ConfigReloadResult } from '../protocol/methods/server.ts';
import { hostSocketPath } from '../terminal/pty-host/launch.ts';
import { lockFilePath } from '../terminal/pty-host/daemon-lock.ts';
import { TerminalHost } from '../terminal/pty-host/terminal-host.ts';
import { startAgentInput } from './agent-input/handlers.ts';
import { AgentService } from './agents/agent-service.ts';
import type { DaemonCore } from './agents/core.ts';
import { startAgents } from './agents/handlers.ts';
import { manifestIdentifier } from './agents/manifest-identifier.ts';
import { startAttach } from './attach/handlers.ts';
import { DEFAULT_CONFIG, defaultConfigPath, type CorralConfig } from './config/index.ts';
import { ConfigReloader } from './config/reload.ts';
import { eventLogDir, openEventLog, paneHistories, paneNumbersAfter, startEvents } from './events/index.ts';
import { startInbox } from './inbox/handlers.ts';
import { inboxFilePath } from './inbox/inbox-path.ts';
import { LimitedLog } from './limited-log.ts';
import type { Logger } from './logger.ts';
import { startMetadata } from './metadata/handlers.ts';
import { Notifier } from './notify/notifier.ts';
import { startPush } from './push/handlers.ts';
import { retainExitedPanes } from './panes/exited-retention.ts';
import { startPanes } from './panes/handlers.ts';
import { PaneRegistry, type SpawnTerminal } from './panes/pane-registry.ts';
import { startPersist } from './persist/handlers.ts';
import { answerAgent } from './agent-input/answer.ts';
import { auditLogPath } from './policy/audit-log.ts';
import { startPolicy } from './policy/handlers.ts';
import { stateDir, registryFilePath } from './private-file.ts';
import { startRecord } from './record/record-service.ts';
import { Connection } from './rpc/connection.ts';
import type { DaemonPart, HandlerBinding } from './rpc/handler.ts';
import { RpcServer } from './rpc/rpc-server.ts';
import { serverHandlers } from './rpc/server-handlers.ts';
import { acquireLock } from './startup/lock-file.ts';
import { checkSocketPathLength, prepareSocketDir, removeStaleSocket, restrictSocket } from './startup/socket-file.ts';
import { startWaits } from './waits/handlers.ts';
import { BUNDLED_PRICES } from './bundled-prices.ts';
import { startUsage, usageFilePath, userPricesPath } from './usage/handlers.ts';
import { PriceTable } from './usage/price-table.ts';

export type DaemonLifecycle = 'running' | 'stopping' | 'stopped';

/** How a stop treats the panes: `detach` leaves them running in the pty host, `end` ends them all. */
export type PanesOnStop = 'detach' | 'end';

export interface DaemonOptions {
  socketPath: string;
  log: Logger;
  /**
   * Starts panes in this process, so they end with it (benches, in-process tests). Without it the
   * daemon keeps its PTYs in the pty host beside its socket, and panes outlive the daemon.
   */
  spawnTerminal?: SpawnTerminal;
  /** Where manifests come from; defaults to bundled, the catalog folder and the user override folder. */
  manifests?: ManifestSetOptions;
  /** Settings from config.toml; the embedded defaults when absent. */
  config?: CorralConfig;
  /** Where `config` came from, so `server.reloadConfig` and SIGHUP can read it again; none: no reload. */
  configSource?: { path: string; explicit: boolean };
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}


/** Client connections served at once; one more is answered `too_many_connections` and closed. */
export const MAX_CONNECTIONS = 256;
/**
 * A running daemon: the socket, the connections, the RPC server and the panes.
 * Extension: `registry` hooks per pane; `rpc.register()` adds method groups; `connections` for events.
 */
export class Daemon {
  private current: DaemonLifecycle = 'running';
  /** Refused and cut-off clients, which a misbehaving client can repeat without end. */
  private readonly clientWarnings: LimitedLog;
  private readonly connections = new Set<Connection>();
  private nextConnection = 1;
  private stopped: Promise<void> | null = null;
  private readonly stopWaiters: Array<() => void> = [];
  private readonly owned: DisposableStore;
  /** The registry file's writer, stopped before the panes are let go at a detaching stop. */
  private stateStore: Disposable | null = null;
  /** Where per-launch integration keeps its files, one folder per pane (integration/planner.ts). */
  private hooksDir: string | null = null;
  /** Reads config.toml again and applies what can change live (`server.reloadConfig`, SIGHUP). */
  reloadConfig: () => ConfigReloadResult = () => ({ file: null, applied: [], restart: [] });

  private constructor(
    readonly socketPath: string,
    readonly registry: PaneRegistry,
    readonly rpc: RpcServer,
    readonly agents: AgentService,
    private readonly server: Server,
    private readonly lock: Disposable,
    private readonly log: Logger,
    /** Null when panes run in this process. */
    readonly host: TerminalHost | null,
  ) {
    this.owned = new DisposableStore((error) => log.error({ err: error }, 'daemon part failed to dispose'));
    this.clientWarnings = new LimitedLog(log);
  }

  static async start(options: DaemonOptions): Promise<Daemon> {
    const { socketPath, log } = options;
    checkSocketPathLength(socketPath);
    checkSocketPathLength(hostSocketPath(socketPath));
    prepareSocketDir(dirname(socketPath));
    const lock = acquireLock(lockFilePath(socketPath), socketPath);
    let host: TerminalHost | null = null;
    try {
      if (await removeStaleSocket(socketPath)) log.warn({ socket: socketPath }, 'removed a stale socket');
      // The host is attached once the synchronous start-up work (manifests, the event log) is done: a
      // host that refuses this daemon says why on the connection and closes it a moment later
      // (src/terminal/pty-host/refusals.ts), so the connection must be read as soon as it is made.
      let hostAttached: Promise<TerminalHost> | null = null;
      const spawnTerminal: SpawnTerminal = options.spawnTerminal ?? (async (spawnOptions, meta) => (await hostAttached!).spawn(spawnOptions, meta));
      const config = options.config ?? DEFAULT_CONFIG;
      const core = startCore(options, spawnTerminal, config);
      if (options.spawnTerminal === undefined) {
        hostAttached = TerminalHost.attach(socketPath);
        host = await hostAttached;
        const attached = host;
        log.info({ hostPid: host.pid, started: host.started, panes: host.recovered.length, ringBytes: host.ringBytes }, 'pty host attached');
        host.onLost(() => log.error({ hostPid: attached.pid }, 'the pty host went away: its panes are lost'));
      }
      const server = createServer({ allowHalfOpen: true });
      const daemon = new Daemon(socketPath, core.registry, new RpcServer(log), core.agents, server, lock, log, host);
      daemon.hooksDir = core.hooksDir;
      daemon.own(core.agents);
      const version = packageVersion();
      daemon.startParts(core, { config, source: options.configSource ?? null, version });
      daemon.own(acceptEveryWaiting(server, (socket) => daemon.accept(socket), { allowHalfOpen: true }));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(socketPath, () => {
          server.off('error', reject);
          resolve();
        });
      });
      server.on('error', (error) => log.error({ err: error }, 'socket server error'));
      restrictSocket(socketPath);
      log.info({ socket: socketPath, version }, 'listening');
      return daemon;
    } catch (error) {
      host?.dispose();
      lock.dispose();
      throw error;
    }
  }

  /**
   * Starts every feature on the core as a part, in this order (each is told of panes and agent changes
   * in it), the recovery of what the last daemon left among them, and registers all their handlers.
   */
  private startParts(core: StartedCore, { config, source, version }: { config: CorralConfig; source: { path: string; explicit: boolean } | null; version: string }): void {
    const { registry, log, durable, history } = core;
    const hooksDir = this.hooksDir;
    // The budgets hold a pane's queue and refuse its prompts; usage reading starts after the events it publishes on.
    let usageReading: ReturnType<typeof startUsage> | undefined;
    const input = startAgentInput(core, { held: (paneId) => usageReading?.usage.held(paneId) ?? null });
    const metadata = startMetadata(core);
    const events = startEvents({ registry, agents: core.agents, log, ...config.events, durable, metadata: metadata.store });
    const usage = (usageReading = startUsage(core, { hub: events.hub, prices: loadPrices(source, log), budgets: config.budgets, path: usageFilePath(this.socketPath) }));
    usage.usage.onHoldChanged((paneId) => input.queues.resume(paneId));
    const inbox = startInbox(core, events.hub, inboxFilePath(this.socketPath));
    // The parts a config reload replaces (config/reload.ts LIVE_KEYS), disposed with the daemon.
    const live: { notifier: Notifier | null; retention: Disposable | null } = { notifier: null, retention: null };
    const startNotifier = (notify: CorralConfig['notify']) => {
      live.notifier?.dispose();
      live.notifier = notify.command ? new Notifier(inbox.inbox, events.hub, { ...notify, command: notify.command, log }) : null;
    };
    startNotifier(config.notify);
    // A notification's button answers as `agent.answer` does, through its handler as served (acknowledging the pane's items).
    let answering: HandlerBinding | undefined;
    // The policy starts later; a push of a prompt it may answer at once waits for its decision.
    let deciding: ReturnType<typeof startPolicy> | undefined;
    const push = startPush(core, {
      attention: inbox.inbox,
      hub: events.hub,
      socketPath: this.socketPath,
      config: config.notify,
      answer: async ({ pane, promptId, choice }, context) => answering!.handle({ target: pane, promptId, choice }, context),
      policyMayAnswer: (paneId, promptId) => deciding?.mayAnswerAtOnce(paneId, promptId) ?? false,
    });
    const waits = startWaits(core, history);
    const info = { version, socket: this.socketPath, startedAt: Date.now() };
    const counts = () => ({ paneCount: registry.size, connections: this.clients().length, waits: waits.size });
    const parts: DaemonPart[] = [
      input,
      metadata,
      events,
      usage,
      inbox,
      push,
      { handlers: [], dispose: () => (live.notifier?.dispose(), live.retention?.dispose()) },
      { handlers: serverHandlers(info, counts, (panes) => void this.stop(panes)), dispose: () => undefined },
      startPanes(registry, input.queues),
      startAgents(core),
      waits,
      startAttach(core),
      startRecord(registry),
    ];
    const persist = startPersist(core, { path: registryFilePath(this.socketPath), socketPath: this.socketPath, host: this.host, hooksDir, respawn: config.panes.respawn });
    this.stateStore = persist.store;
    parts.push(persist);
    live.retention = retainExitedPanes(registry, config.panes.keepExited, log);
    // Each live key (config/reload.ts LIVE_KEYS) replaces the part that holds it.
    const applyLive = (next: CorralConfig, changed: readonly string[]) => {
      if (changed.some((key) => key.startsWith('notify.'))) startNotifier(next.notify);
      if (changed.includes('panes.keep_exited')) {
        live.retention?.dispose();
        live.retention = retainExitedPanes(registry, next.panes.keepExited, log);
      }
      registry.useCaller = next.panes.useCaller;
      registry.passEnv = next.panes.passEnv;
      if (changed.includes('integration.enabled')) registry.planLaunch = planLaunch(core, next);
      if (changed.includes('budgets')) usage.usage.setBudgets(next.budgets);
    };
    const policy = (deciding = startPolicy(core, {
      hub: events.hub,
      // The policy answers as `agent.answer` does, by prompt id: a dialog that changed is not answered.
      answer: (pane, request) => answerAgent(core.agents, pane, request, new AbortController().signal),
      configPath: source?.path ?? null,
      files: config.policy.files,
      auditPath: auditLogPath(this.socketPath),
    }));
    parts.push(policy);
    const reloader = new ConfigReloader(source, config, applyLive, log, (next) => policy.reload(next.policy.files));
    this.reloadConfig = () => reloader.reload();
    parts.push({ handlers: reloader.handlers(), dispose: () => undefined });
    for (const part of parts) this.own(part);
    const bindings = inbox.acknowledgingOnAction(parts.flatMap((part) => part.handlers));
    answering = bindings.find((binding) => binding.method === AGENT_ANSWER);
    this.register(bindings);
  }

  get lifecycle(): DaemonLifecycle {
    return this.current;
  }

  register(bindings: readonly HandlerBinding[]): void {
    this.rpc.register(bindings);
  }

  /** Ties a daemon-wide part (an event hub, a config watcher) to the daemon: disposed at stop, after the panes. */
  own<T extends Disposable>(disposable: T): T {
    return this.owned.add(disposable);
  }

  /** Live client connections (for pushing notifications). */
  clients(): Connection[] {
    return [...this.connections];
  }

  /**
   * Stop accepting, close the clients, remove the socket and the lock. `detach` (the default, as
   * on SIGTERM) leaves every pane running in the pty host for the next daemon; `end` ends every
   * pane's process group by the terminal's one policy and lets the host exit. Safe to call twice.
   */
  stop(panes: PanesOnStop = 'detach'): Promise<void> {
    this.stopped ??= this.shutdown(panes);
    for (const resolve of this.stopWaiters.splice(0)) void this.stopped.then(resolve, resolve);
    return this.stopped;
  }

  /** Resolves once a stop (by signal or by `server.stop`) has finished. */
  whenStopped(): Promise<void> {
    if (this.stopped) return this.stopped.catch(() => undefined);
    return new Promise((resolve) => this.stopWaiters.push(resolve));
  }

  private async shutdown(panes: PanesOnStop): Promise<void> {
    this.current = 'stopping';
    this.log.info({ panes: this.registry.size, ending: panes === 'end' }, 'stopping');
    this.rpc.stopAccepting();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (panes === 'end' || this.host === null) {
      await Promise.all([this.registry.removeAll(), this.host?.shutdown()]);
      this.registry.dispose();
      if (this.hooksDir !== null) rmSync(this.hooksDir, { recursive: true, force: true });
    } else {
      this.stateStore?.dispose(); // the panes live on: the file keeps them for the next daemon
      this.registry.detachAll();
      this.host.dispose();
      try {
        if (this.hooksDir !== null) rmdirSync(this.hooksDir); // only when no pane that lives on keeps files there
      } catch {
        // not empty, or never made
      }
    }
    this.stateStore?.dispose();
    this.owned.dispose();
    // Pending waits were just cancelled with shutting_down: their replies go out before the connections close.
    await new Promise((resolve) => setImmediate(resolve));
    for (const connection of this.connections) connection.close();
    try {
      unlinkSync(this.socketPath);
    } catch {
      // already gone
    }
    this.lock.dispose();
    await closed;
    this.current = 'stopped';
    this.log.info('stopped');
  }

  private accept(socket: Socket): void {
    if (this.current !== 'running') {
      socket.destroy();
      return;
    }
    if (this.connections.size >= MAX_CONNECTIONS) {
      this.clientWarnings.warn({ limit: MAX_CONNECTIONS }, 'connection refused: too many connections');
      const error = new CorralError('too_many_connections', `the daemon serves its maximum of ${MAX_CONNECTIONS} connections; close one and retry`, {
        limit: MAX_CONNECTIONS,
      });
      socket.end(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: error.toJSONRPC() })}\n`);
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    const id = this.nextConnection++;
    const connection = new Connection(
      id,
      socket,
      {
        frame: (conn, frame) => this.rpc.serveFrame(conn, frame),
        overflow: (conn) => {
          this.clientWarnings.warn({ connection: id, limit: MAX_FRAME_BYTES }, 'frame too large; closing connection');
          conn.send(this.rpc.frameTooLarge(MAX_FRAME_BYTES));
        },
      },
      this.log.child({ connection: id }),
    );
    this.connections.add(connection);
    connection.onClose(() => this.connections.delete(connection));
    this.log.debug({ connection: id }, 'client connected');
  }
}

/** The core as `startCore` leaves it: with the event log it read. */
interface StartedCore extends DaemonCore {
  readonly durable: ReturnType<typeof openEventLog>;
  readonly history: ReturnType<typeof paneHistories>;
  readonly hooksDir: string;
}

/** The pane registry and the agents on it; the event log is read first, so seq and cursors continue the earlier daemon's. */
function startCore(options: DaemonOptions, spawnTerminal: SpawnTerminal, config: CorralConfig): StartedCore {
  const { socketPath, log } = options;
  const registry = new PaneRegistry(spawnTerminal, socketPath, log);
  const manifests = new ManifestSet(options.manifests);
  for (const error of manifests.list().errors) log.warn({ file: error.file, code: error.code }, error.message);
  const durable = openEventLog(eventLogDir(stateDir(), socketPath), config.events, log);
  const history = paneHistories(durable.loaded.history);
  // A new pane never takes an id the stream has named: a script's saved id, or the log's own
  // "announced" mark, would then mean another pane (the state file may not hold the last ones).
  registry.reserveIds(paneNumbersAfter(durable.loaded.history));
  const agents = new AgentService({
    registry,
    manifests,
    identifier: manifestIdentifier,
    log,
    windows: { debounceMs: config.arbiter.debounceMs },
    inband: config.reports.inband,
    seqAfter: durable.loaded.lastSeq,
    prior: history,
  });
  const core = { registry, agents, log, durable, history, hooksDir: launchFilesDir(socketPath) };
  registry.useCaller = config.panes.useCaller;
  registry.passEnv = config.panes.passEnv;
  registry.planLaunch = planLaunch(core, config);
  return core;
}

/**
 * The bundled price table, with the user's own (prices.toml beside config.toml) over it; a user table
 * that cannot be used is logged and left out, so the daemon still starts (docs/usage.md).
 */
function loadPrices(source: { path: string } | null, log: Logger): PriceTable {
  const userFile = userPricesPath(source?.path ?? defaultConfigPath());
  try {
    return PriceTable.load(BUNDLED_PRICES, userFile);
  } catch (error) {
    log.error({ err: error, file: userFile }, 'the price table cannot be used: figuring cost by the bundled table only');
    return PriceTable.load(BUNDLED_PRICES, null);
  }
}

/** Per-launch integration as `[integration]` sets it, its files one folder per pane below `hooksDir`. */
function planLaunch({ agents, log, hooksDir }: StartedCore, config: CorralConfig): LaunchPlanner {
  return launchPlanner({ manifests: () => agents.manifests, stateDir: hooksDir, enabled: config.integration.enabled, log });
}
