import { DaemonConnection } from '../../src/cli/with-daemon.ts';
import { sleep } from '../../harness/wait.ts';

/** A client of the daemon just started on `socket`, once it answers (about 15 s at most). */
export async function connectWhenUp(socket: string): Promise<DaemonConnection> {
  for (let i = 0; ; i += 1) {
    try {
      return await DaemonConnection.connect(socket);
    } catch {
      if (i > 300) throw new Error('the daemon did not start');
      await sleep(50);
    }
  }
}
