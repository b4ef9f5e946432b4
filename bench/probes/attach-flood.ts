// Not a benchmark: what a client attached to a flooding pane receives. The pane writes a counted flood
// of `yes`, then `flood-done`, and exits; the client reads at full speed, or first stops reading for a
// while (it falls behind). Prints the live and redraw bytes it got and whether its screen ends on the
// pane's last line (test/daemon/attach/attach.test.ts asserts the case of a pane that exits while it is behind).
// Run: node --import tsx bench/probes/attach-flood.ts [MB, default 24] [ms the client stops reading, default 0]
import { connect } from 'node:net';
import { startDaemon } from '../../harness/daemon.ts';
import { FrameDecoder } from '../../src/protocol/framing.ts';

const mb = Number(process.argv[2] ?? 24);
const pauseMs = Number(process.argv[3] ?? 0);
const daemon = await startDaemon();
const socket = connect(daemon.socket);
await new Promise<void>((resolve) => socket.once('connect', resolve));
const decoder = new FrameDecoder(Number.POSITIVE_INFINITY);
let live = 0;
let redrawBytes = 0;
let redraws = 0;
/** The end of what the client's terminal was given: a redraw replaces it. */
let tail = '';
let nextId = 1;
const replies = new Map<number, () => void>();
const call = (method: string, params: unknown) =>
  new Promise<void>((resolve) => {
    const id = nextId++;
    replies.set(id, resolve);
    socket.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
const detached = new Promise<{ reason: string }>((resolve) => {
  socket.on('data', (chunk: Buffer) => {
    for (const frame of decoder.push(chunk).frames) {
      const message = JSON.parse(frame);
      if (message.method === 'pane.output') {
        const data: string = message.params.data;
        if (message.params.redraw) {
          redraws++;
          redrawBytes += data.length;
          tail = data.slice(-400);
        } else {
          live += data.length;
          tail = (tail + data).slice(-400);
        }
      } else if (message.method === 'pane.detached') resolve(message.params);
      else if (typeof message.id === 'number') replies.get(message.id)?.();
    }
  });
});
const started = performance.now();
await call('pane.spawn', { command: 'sh', args: ['-c', `sleep 0.5; yes | head -c ${mb * 1_000_000}; echo; echo flood-done`], name: 'flood' });
await call('pane.attach', { target: 'flood' });
if (pauseMs > 0) {
  socket.pause();
  setTimeout(() => socket.resume(), pauseMs);
}
const end = await detached;
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`${mb} MB of yes (${mb * 1.5} MB as the terminal gets it), client paused ${pauseMs} ms: live ${live} bytes, ${redraws} redraws (${redrawBytes} bytes), pane.detached (${end.reason}) after ${seconds} s`);
console.log(`the client's screen ends on the pane's last line: ${tail.includes('flood-done')}`);
socket.destroy();
await daemon.dispose();
