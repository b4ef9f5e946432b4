import type { DaemonProcess } from '../../harness/daemon.ts';
import { RawClient } from '../../harness/raw-client.ts';

/** A raw client whose `call` returns the result and throws the reply's error (as `rpc`). */
export async function connectCalling(daemon: DaemonProcess): Promise<{ client: RawClient; call(method: string, params?: unknown): Promise<any> }> {
  const client = await RawClient.connect(daemon.socket);
  let id = 1;
  return {
    client,
    async call(method, params) {
      const reply = await client.call(id++, method, params);
      if (reply.error) throw Object.assign(new Error(`${method}: ${reply.error.message}`), { rpc: reply.error });
      return reply.result;
    },
  };
}

/** kill -9 of the daemon alone: the pty host and its panes live on. */
export async function killDaemon(daemon: DaemonProcess): Promise<void> {
  daemon.child.kill('SIGKILL');
  await daemon.stop();
}
