import { resolveSocketPath } from '../protocol/socket-path.ts';
import type { SpawnTerminal } from './panes/pane-registry.ts';
import { Daemon } from './daemon.ts';
import { defaultConfigPath, loadConfig } from './config/index.ts';
import { createLogger, type LogLevel } from './logger.ts';

export interface RunDaemonOptions {
  socket?: string;
  logLevel: LogLevel;
  /** config.toml to read; a missing file is an error here, unlike the default path. */
  config?: string;
  /** Panes in this process instead of the pty host (they end with the daemon). */
  spawnTerminal?: SpawnTerminal;
}

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Runs the daemon in the foreground until a stop signal or `server.stop`, then stops it and
 * resolves with the exit code. A signal leaves the agents running in the pty host (the service
 * case: a restart takes them back); `server.stop` with `panes` ends them. Startup failures reject with a StartupError for the CLI to print.
 */
export async function runDaemon(options: RunDaemonOptions): Promise<number> {
  // A broken config refuses the start (a ConfigError naming file, line and key), before any socket exists.
  const configSource = { path: options.config ?? defaultConfigPath(), explicit: options.config !== undefined };
  const config = loadConfig(configSource.path, { explicit: configSource.explicit });
  const log = createLogger(options.logLevel);
  const daemon = await Daemon.start({
    socketPath: resolveSocketPath(options.socket),
    log,
    ...(options.spawnTerminal ? { spawnTerminal: options.spawnTerminal } : {}),
    config,
    configSource,
  });
  // Input and listeners must never take the daemon down with the panes it owns: log and go on.
  process.on('uncaughtException', (error) => log.error({ err: error }, 'uncaught exception'));
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection'));
  // SIGHUP reloads the config and the agent manifests, as `server.reloadConfig` and `server.reloadManifests` do.
  process.on('SIGHUP', () => {
    log.info('SIGHUP: reloading the config and the manifests');
    try {
      daemon.reloadConfig(); // logs what took effect and what needs a restart
    } catch (error) {
      log.error({ err: error }, 'config reload failed; the daemon keeps the settings it had');
    }
    daemon.agents.reloadManifests().catch((error: unknown) => log.error({ err: error }, 'manifest reload failed'));
  });
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      log.info({ signal }, 'stop signal');
      void daemon.stop('detach');
    });
  }
  return daemon.whenStopped().then(
    () => 0,
    (error: unknown) => {
      log.error({ err: error }, 'stop failed');
      return 1;
    },
  );
}
