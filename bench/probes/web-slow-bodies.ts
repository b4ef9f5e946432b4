// The slow-body attack on `corral web` (docs/web.md, "Bounds"): CONNECTIONS connections, each posting
// the token exchange with `Content-Length: 4000` and sending one byte every 2-5 s, as a local process
// would (the right Host and Origin); with `headers`, each sends a header line every 2-5 s instead and
// never ends them. Prints, every second, how many of them the server still holds open and the
// descriptors of its process (/proc/PID/fd), and the peak. Not a benchmark; run alone:
//   node --import tsx bench/probes/web-slow-bodies.ts [connections=1100] [seconds=55] [body|headers]
import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { startDaemon } from '../../harness/daemon.ts';
import { startWeb } from '../../harness/web.ts';

const connections = Number(process.argv[2] ?? 1100);
const seconds = Number(process.argv[3] ?? 55);
const slowHeaders = process.argv[4] === 'headers';

const daemon = await startDaemon();
const web = await startWeb(daemon);
const pid = web.child.pid!;
const { hostname, port } = new URL(web.origin);
const fds = () => readdirSync(`/proc/${pid}/fd`).length;
console.log(`corral web pid ${pid}: ${fds()} descriptors before`);

let open = 0;
/** When the first of them was closed by the server, and the last. */
let firstClosed: number | null = null;
let lastClosed: number | null = null;
const sockets: Socket[] = [];
const start = Date.now();
for (let i = 0; i < connections; i++) {
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  socket.on('error', () => {});
  socket.once('connect', () => {
    open++;
    socket.write(`POST /session HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${web.origin}\r\nContent-Length: 4000\r\n${slowHeaders ? '' : '\r\n'}`);
    const drip = () => {
      if (socket.destroyed) return;
      socket.write(slowHeaders ? 'X-Slow: 1\r\n' : 'x');
      setTimeout(drip, 2000 + Math.random() * 3000).unref();
    };
    setTimeout(drip, 2000 + Math.random() * 3000).unref();
  });
  socket.once('close', () => {
    open--;
    lastClosed = Date.now() - start;
    firstClosed ??= lastClosed;
  });
}

let peak = 0;
const timer = setInterval(() => {
  const now = fds();
  peak = Math.max(peak, now);
  console.log(`${((Date.now() - start) / 1000).toFixed(1)} s: ${open} open, corral web holds ${now} descriptors`);
}, 1000);
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
clearInterval(timer);
console.log(`after ${seconds} s: ${open} of ${connections} still open; peak ${peak} descriptors; closed from ${firstClosed ?? '-'} to ${lastClosed ?? '-'} ms`);
for (const socket of sockets) socket.destroy();
await web.dispose();
await daemon.dispose();
