import type { DaemonProcess } from '../../harness/daemon.ts';

/** kill -9 of the daemon alone: the pty host and its panes live on. */
export async function killDaemon(daemon: DaemonProcess): Promise<void> {
  daemon.child.kill('SIGKILL');
  await daemon.stop();
}
