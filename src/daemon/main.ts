import { resolveSocketPath } from '../protocol/socket-path.ts';
import type { SpawnTerminal } from './pane-registry.ts';
import { Daemon } from './daemon.ts';
import { defaultConfigPath, loadConfig } from './config/index.ts';
import { createLogger, type LogLevel } from './logger.ts';

export interface RunDaemonOptions {
  socket?: string;
  logLevel: LogLevel;
  /** config.toml to read; a missing file is an error here, unlike the default path. */
  config?: string;
  spawnTerminal: SpawnTerminal;
}

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Runs the daemon in the foreground until a stop signal, then stops it (ending every pane) and
 * resolves with the exit code. Startup failures reject with a StartupError for the CLI to print.
 */
export async function runDaemon(options: RunDaemonOptions): Promise<number> {
  // A broken config refuses the start (a ConfigError naming file, line and key), before any socket exists.
  const config = loadConfig(options.config ?? defaultConfigPath(), { explicit: options.config !== undefined });
  const log = createLogger(options.logLevel);
  const daemon = await Daemon.start({
    socketPath: resolveSocketPath(options.socket),
    log,
    spawnTerminal: options.spawnTerminal,
    config,
  });
  // Input and listeners must never take the daemon down with the panes it owns: log and go on.
  process.on('uncaughtException', (error) => log.error({ err: error }, 'uncaught exception'));
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection'));
  // SIGHUP reloads the agent manifests, as `server.reloadManifests` does.
  process.on('SIGHUP', () => {
    log.info('SIGHUP: reloading manifests');
    daemon.agents.reloadManifests();
  });
  return new Promise((resolve) => {
    for (const signal of STOP_SIGNALS) {
      process.on(signal, () => {
        log.info({ signal }, 'stop signal');
        daemon.stop().then(
          () => resolve(0),
          (error: unknown) => {
            log.error({ err: error }, 'stop failed');
            resolve(1);
          },
        );
      });
    }
  });
}
