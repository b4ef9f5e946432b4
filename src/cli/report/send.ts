import { connect } from 'node:net';

export type SendOutcome<R = { accepted: boolean; reason?: string }> =
  | { ok: true; result: R }
  | { ok: false; code: 'daemon_unreachable' | 'timeout' | 'bad_reply' | 'daemon_error'; message: string };

/**
 * One JSON-RPC request on a fresh connection, answered or abandoned by `deadline` (ms since epoch):
 * connect, write and the answer all fit in it. No protocol check: one round trip is the whole budget.
 */
export function sendOnce<R = { accepted: boolean; reason?: string }>(socketPath: string, method: string, params: object, deadline: number): Promise<SendOutcome<R>> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    let buffered = '';
    let settled = false;
    const finish = (outcome: SendOutcome<R>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ ok: false, code: 'timeout', message: `no answer from ${socketPath} in time` }),
      Math.max(0, deadline - Date.now()),
    );
    socket.on('connect', () => socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })}\n`));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish({ ok: false, code: 'daemon_unreachable', message: `no daemon answers at ${socketPath} (${error.code ?? error.message})` }),
    );
    socket.on('close', () => finish({ ok: false, code: 'daemon_unreachable', message: `the daemon at ${socketPath} closed the connection` }));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end < 0) {
        if (buffered.length > 65536) finish({ ok: false, code: 'bad_reply', message: 'the answer is too long' });
        return;
      }
      try {
        const reply = JSON.parse(buffered.slice(0, end)) as { result?: R; error?: { message?: string } };
        if (reply.result) finish({ ok: true, result: reply.result });
        else finish({ ok: false, code: 'daemon_error', message: reply.error?.message ?? 'the daemon answered with an error' });
      } catch {
        finish({ ok: false, code: 'bad_reply', message: 'the answer is not JSON' });
      }
    });
  });
}
