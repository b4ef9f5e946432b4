import { readFileSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { CorralError } from '../protocol/errors.ts';
import { dirname } from 'node:path';
import { DisposableStore, type Disposable } from '../base/disposable.ts';
import { ManifestSet, type ManifestSetOptions } from '../manifest-store/manifest-set.ts';
import { MAX_FRAME_BYTES } from '../protocol/framing.ts';
import { acceptEveryWaiting } from './rpc/accept-backlog.ts';
import { Connection } from './rpc/connection.ts';
import type { HandlerBinding } from './rpc/handler.ts';
import { AgentService } from './agents/agent-service.ts';
import { DEFAULT_CONFIG, type CorralConfig } from './config/index.ts';
import { eventLogDir, openEventLog, paneHistories, publishMetadataEvents, startEvents } from './events/index.ts';
import { Notifier } from './notify/notifier.ts';
import { Inbox } from './inbox/inbox.ts';
import { acknowledgingOnAction, inboxHandlers } from './inbox/handlers.ts';
import { manifestIdentifier } from './agents/manifest-identifier.ts';
import { agentHandlers } from './agents/handlers.ts';
import { ExternalPanes } from './agents/external-panes.ts';
import { agentQueryHandlers } from './agents/query-handlers.ts';
import { agentWaitHandlers } from './waits/handlers.ts';
import { WaitHub } from './waits/wait-hub.ts';
import { SteeringQueues } from './agent-input/steering-queue.ts';
import { typePrompt } from './agent-input/typing.ts';
import { agentActHandlers } from './agent-input/handlers.ts';
import { metadataHandlers } from './metadata/handlers.ts';
import { MetadataStore } from './metadata/metadata-store.ts';
import { AttachService } from './attach/attach-service.ts';
import { RecordService, recordHandlers } from './record/record-service.ts';
import { attachHandlers } from './attach/handlers.ts';
import { manifestHandlers } from './agents/manifest-handlers.ts';
import { paneHandlers } from './panes/handlers.ts';
import { launchDir, launchFilesDir, launchPlanner, pruneLaunchDirs } from '../integration/planner.ts';
import { serverHandlers } from './rpc/server-handlers.ts';
import { acquireLock } from './startup/lock-file.ts';
import type { Logger } from './logger.ts';
import { PaneRegistry, type PaneMeta, type SpawnTerminal } from './panes/pane-registry.ts';
import type { PreviousLife } from './panes/pane-record.ts';
import { TerminalHost } from '../terminal/pty-host/terminal-host.ts';
import { lostTerminalPane } from '../terminal/lost-pane.ts';
import type { RespawnPolicy } from './config/config-schema.ts';
import { respawnPane } from './persist/respawn.ts';
import { loadPaneState, PaneStateStore, type StoredPane, type StoredState } from './persist/pane-store.ts';
import { stateDir, stateFilePath } from './private-file.ts';
import { inboxFilePath } from './inbox/inbox-path.ts';
import { hostSocketPath } from '../terminal/pty-host/launch.ts';
import { lockFilePath } from '../terminal/pty-host/daemon-lock.ts';
import { RpcServer } from './rpc/rpc-server.ts';
import { LimitedLog } from './limited-log.ts';
import { retainExitedPanes } from './panes/exited-retention.ts';
import { ConfigReloader } from './config/reload.ts';
import type { ConfigReloadResult } from '../protocol/methods/server.ts';
import { checkSocketPathLength, prepareSocketDir, removeStaleSocket, restrictSocket } from './startup/socket-file.ts';

export type DaemonState = 'running' | 'stopping' | 'stopped';

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
  private lifecycle: DaemonState = 'running';
  /** Refused and cut-off clients, which a misbehaving client can repeat without end. */
  private readonly clientWarnings: LimitedLog;
  private readonly connections = new Set<Connection>();
  private nextConnection = 1;
  private stopped: Promise<void> | null = null;
  private readonly stopWaiters: Array<() => void> = [];
  private readonly owned: DisposableStore;
  private stateStore: PaneStateStore | null = null;
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
      const registry = new PaneRegistry(spawnTerminal, socketPath, log);
      const rpc = new RpcServer(log);
      const server = createServer({ allowHalfOpen: true });
      const manifests = new ManifestSet(options.manifests);
      for (const error of manifests.list().errors) log.warn({ file: error.file, code: error.code }, error.message);
      const config = options.config ?? DEFAULT_CONFIG;
      registry.useCaller = config.panes.useCaller;
      registry.passEnv = config.panes.passEnv;
      // AgentInfo shows the queue's size and the metadata, and both follow the agents: the two are
      // built after the service, which reads them through these sources only once it publishes.
      let queues: SteeringQueues | undefined;
      let metadata: MetadataStore | undefined;
      const extras = { queued: (paneId: string) => queues?.size(paneId) ?? 0, metadata: (paneId: string) => metadata?.get(paneId) ?? null };
      // Read before the agents number their first change: seq and cursors continue the earlier daemon's.
      const durable = openEventLog(eventLogDir(stateDir(), socketPath), config.events, log);
      const history = paneHistories(durable.loaded.events);
      const agents = new AgentService({
        registry,
        manifests,
        identifier: manifestIdentifier,
        log,
        windows: { debounceMs: config.arbiter.debounceMs },
        inband: config.reports.inband,
        extras,
        seqAfter: durable.loaded.lastSeq,
        prior: history,
      });
      if (options.spawnTerminal === undefined) {
        hostAttached = TerminalHost.attach(socketPath);
        host = await hostAttached;
        const attached = host;
        log.info({ hostPid: host.pid, started: host.started, panes: host.recovered.length, ringBytes: host.ringBytes }, 'pty host attached');
        host.onLost(() => log.error({ hostPid: attached.pid }, 'the pty host went away: its panes are lost'));
      }
      const hooksDir = launchFilesDir(socketPath);
      const planLaunch = (enabled: boolean) => launchPlanner({ manifests: () => agents.manifests, stateDir: hooksDir, enabled, log });
      registry.planLaunch = planLaunch(config.integration.enabled);
      const daemon = new Daemon(socketPath, registry, rpc, agents, server, lock, log, host);
      daemon.hooksDir = hooksDir;
      daemon.own(agents);
      queues = daemon.own(new SteeringQueues({ registry, agents, log, type: (pane, prompt) => typePrompt(pane, prompt.text, prompt.submit) }));
      metadata = daemon.own(new MetadataStore({ registry, agents, log }));
      const events = daemon.own(startEvents({ registry, agents, log, ...config.events, durable }));
      daemon.own(publishMetadataEvents(events.hub, registry, metadata, agents));
      const inbox = daemon.own(new Inbox(inboxFilePath(socketPath), events.hub, agents, log));
      // The parts a config reload replaces (config/reload.ts LIVE_KEYS), disposed with the daemon.
      const live: { notifier: Notifier | null; retention: Disposable | null } = { notifier: null, retention: null };
      daemon.own({ dispose: () => (live.notifier?.dispose(), live.retention?.dispose()) });
      const startNotifier = (notify: CorralConfig['notify']) => {
        live.notifier?.dispose();
        live.notifier = notify.command ? new Notifier(inbox, events.hub, { ...notify, command: notify.command, log }) : null;
      };
      startNotifier(config.notify);
      const info = { version: packageVersion(), socket: socketPath, startedAt: Date.now() };
      const waits = daemon.own(new WaitHub(registry, agents, history));
      daemon.register(acknowledgingOnAction([
        ...serverHandlers(info, registry, () => ({ connections: daemon.clients().length, waits: waits.size }), (panes) => void daemon.stop(panes)),
        ...paneHandlers(registry, queues, (pane, fresh) => respawnPane(registry, agents, pane, fresh)),
        ...agentHandlers(registry, agents, daemon.own(new ExternalPanes(registry, agents, log))),
        ...agentQueryHandlers(registry, agents),
        ...agentWaitHandlers(registry, agents, waits),
        ...agentActHandlers(registry, agents, queues),
        ...metadataHandlers(registry, metadata),
        ...manifestHandlers(agents),
        ...events.handlers,
        ...attachHandlers(registry, daemon.own(new AttachService(registry, agents, log))),
        ...recordHandlers(registry, daemon.own(new RecordService(registry))),
        ...inboxHandlers(inbox),
      ], registry, inbox));
      const statePath = stateFilePath(socketPath);
      const stored = loadPaneState(statePath, log);
      daemon.recover(host, stored);
      daemon.stateStore = new PaneStateStore(statePath, socketPath, registry, agents, log);
      daemon.respawnLost(config.panes.respawn);
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
        if (changed.includes('integration.enabled')) registry.planLaunch = planLaunch(next.integration.enabled);
      };
      const reloader = new ConfigReloader(options.configSource ?? null, config, applyLive, log);
      daemon.reloadConfig = () => reloader.reload();
      daemon.register(reloader.handlers());
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
      log.info({ socket: socketPath, version: info.version }, 'listening');
      return daemon;
    } catch (error) {
      host?.dispose();
      lock.dispose();
      throw error;
    }
  }

  /**
   * Takes back the panes the pty host kept (each replays its ring into a fresh screen), and lists
   * as lost the panes the state file knew that the host no longer holds.
   */
  private recover(host: TerminalHost | null, stored: StoredState | null): void {
    const started = Date.now();
    const previous = new Map<string, StoredPane>((stored?.panes ?? []).map((pane) => [pane.id, pane]));
    for (const { meta, pane } of host?.recovered ?? []) {
      const paneMeta = meta as PaneMeta;
      const known = previous.get(paneMeta.id);
      previous.delete(paneMeta.id);
      const record = this.registry.adopt(known ? { ...paneMeta, previous: lifeOf(known) } : paneMeta, pane);
      const hooksDir = this.hooksDir;
      if (hooksDir !== null) record.onExit(() => rmSync(launchDir(hooksDir, record.id), { recursive: true, force: true }));
      if (pane.dropped > 0) this.log.warn({ pane: record.id, droppedBytes: pane.dropped, ringBytes: host!.ringBytes }, 'output dropped while no daemon was attached');
    }
    for (const pane of previous.values()) {
      if (pane.state === 'exited') continue;
      const note = `[corral] pane ${pane.id} was lost: the process holding its terminal went away.\nRun \`corral pane respawn ${pane.id}\` to start it again.`;
      try {
        this.registry.addLost(
          { ...pane, previous: lifeOf(pane) },
          lostTerminalPane({ pid: pane.pid, cols: pane.cols, rows: pane.rows, note }),
        );
      } catch (error) {
        // A state file edited by hand can name a lost pane by a recovered pane's name.
        this.log.warn({ pane: pane.id, name: pane.name, err: error }, 'pane of the state file not listed: its id or name is taken');
        continue;
      }
      this.log.warn({ pane: pane.id, name: pane.name, agent: pane.agent, session: pane.session }, 'pane lost');
    }
    if (stored) this.registry.reserveIds(stored.nextPane);
    if (this.hooksDir !== null) pruneLaunchDirs(this.hooksDir, (host?.recovered ?? []).map(({ meta }) => (meta as PaneMeta).id));
    const recovered = host?.recovered ?? [];
    if (recovered.length > 0) {
      void Promise.all(recovered.map(({ pane }) => pane.replayed)).then(() =>
        this.log.info({ panes: recovered.length, ms: Date.now() - started }, 'panes recovered'),
      );
    }
  }

  /** Applies the `respawn` config to the lost panes at start. */
  private respawnLost(policy: RespawnPolicy): void {
    const lost = this.registry.list().filter((pane) => pane.state === 'lost');
    if (policy === 'never') return;
    for (const pane of lost) {
      if (policy === 'ask') {
        this.log.warn({ pane: pane.id, name: pane.name }, `pane lost; run \`corral pane respawn ${pane.id}\` to start it again`);
        continue;
      }
      respawnPane(this.registry, this.agents, pane).then(
        (info) => this.log.info({ pane: info.id, resumed: info.resumed }, 'lost pane respawned'),
        (error: unknown) => this.log.error({ pane: pane.id, err: error }, 'cannot respawn a lost pane'),
      );
    }
  }

  get state(): DaemonState {
    return this.lifecycle;
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
    this.lifecycle = 'stopping';
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
    this.lifecycle = 'stopped';
    this.log.info('stopped');
  }

  private accept(socket: Socket): void {
    if (this.lifecycle !== 'running') {
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

function lifeOf(pane: StoredPane): PreviousLife {
  return { agent: pane.agent, state: pane.agentState, session: pane.session, arbiter: pane.arbiter };
}
