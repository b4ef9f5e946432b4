// A daemon in the bench's own process, for benches and probes that read its event loop, heap or
// collections from inside: silent, in a temporary folder, with one client. Its pty host is a
// process of its own and ends with this one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonConnection } from '../../src/cli/with-daemon.ts';
import { DEFAULT_CONFIG, type CorralConfig } from '../../src/daemon/config/index.ts';
import { Daemon } from '../../src/daemon/daemon.ts';
import { createLogger } from '../../src/daemon/logger.ts';

export interface InProcessDaemon {
  dir: string;
  daemon: Daemon;
  client: DaemonConnection;
  /** Disconnects, stops the daemon and removes the folder. */
  stop(): Promise<void>;
}

export async function startInProcessDaemon(name: string, config: CorralConfig = DEFAULT_CONFIG): Promise<InProcessDaemon> {
  process.env.CORRAL_PTY_HOST_WATCH_PID = String(process.pid);
  const dir = mkdtempSync(join(tmpdir(), `corral-${name}-`));
  const daemon = await Daemon.start({ socketPath: join(dir, 'corral.sock'), log: createLogger('silent'), config });
  const client = await DaemonConnection.connect(daemon.socketPath);
  return {
    dir,
    daemon,
    client,
    async stop() {
      client.dispose();
      await daemon.stop('end');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
