// Not a benchmark: slow connections during a flood of pane.send (issue 23, section 3). FLOODS connections
// each send SENDS pipelined pane.sends of 1 MB into a pane that echoes and never reads, again each time
// all are answered; meanwhile SLOW connections each send half a line and nothing more, which the daemon
// should close with frame_timeout FRAME_IDLE_TIMEOUT_MS after their last byte. Prints how many of them the
// daemon had accepted when two status calls came back after they had all connected (a count, not a
// time), and how long each lived from its connect to its close.
// Run: node --import tsx bench/probes/send-flood.ts [slow, default 251] [floods, default 4] [sends, default 16]
import { connect, type Socket } from 'node:net';
import { startDaemon } from '../../harness/daemon.ts';
import { summary } from '../../harness/figures.ts';
import { LineClient, resultCaller } from '../../harness/line-client.ts';

const slowCount = Number(process.argv[2] ?? 251);
const floodCount = Number(process.argv[3] ?? 4);
const sends = Number(process.argv[4] ?? 16);
const daemon = await startDaemon();
const client = await LineClient.connect(daemon.socket);
const call = resultCaller(client);
const pane = (await call('pane.spawn', { command: 'sleep', args: ['300'], cwd: daemon.dir })) as { id: string };

function connected(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(daemon.socket);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

let flooding = true;
let sent = 0;
const line = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'pane.send', params: { target: pane.id, text: 'x'.repeat(1e6) } })}\n`;
async function flood(): Promise<{ socket: Socket; ended: Promise<void> }> {
  const socket = await connected();
  let pending = '';
  let answered = 0;
  const ended = new Promise<void>((resolve) => {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      pending += chunk;
      let nl: number;
      while ((nl = pending.indexOf('\n')) !== -1) {
        if (pending.slice(0, nl).includes('"result"')) sent += 1;
        pending = pending.slice(nl + 1);
        answered += 1;
      }
      if (answered < sends) return;
      answered -= sends;
      if (flooding) socket.write(line.repeat(sends));
      else resolve();
    });
    socket.on('close', () => resolve());
  });
  socket.write(line.repeat(sends));
  return { socket, ended };
}
const floods = await Promise.all(Array.from({ length: floodCount }, flood));
await new Promise((resolve) => setTimeout(resolve, 2000)); // the pane's input bound full, its echo parsing

async function slowConnection(): Promise<{ closed: Promise<{ lifeMs: number; code: string | null }> }> {
  const socket = await connected();
  const start = performance.now();
  let reply = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (reply += chunk));
  socket.write('{"jsonrpc":"2.0","id":1,"method":"server.status"');
  const closed = new Promise<{ lifeMs: number; code: string | null }>((resolve) =>
    socket.once('close', () => resolve({ lifeMs: performance.now() - start, code: /"code":"([a-z_]+)"/.exec(reply)?.[1] ?? null })),
  );
  return { closed };
}
const slowOnes = await Promise.all(Array.from({ length: slowCount }, slowConnection));
const seen = [(await call('server.status', {})).connections, (await call('server.status', {})).connections];
const slow = await Promise.all(slowOnes.map((s) => s.closed));
flooding = false;
await Promise.all(floods.map((f) => f.ended));
const codes: Record<string, number> = {};
for (const { code } of slow) codes[String(code)] = (codes[String(code)] ?? 0) + 1;
const life = summary(slow.map((s) => s.lifeMs));
console.log(JSON.stringify({ slowCount, floodCount, sends, connections: 1 + floodCount + slowCount, acceptedAtStatus: seen, codes, lifeMs: life, sentMB: sent }));
console.log(
  `${seen[0]} then ${seen[1]} of ${1 + floodCount + slowCount} connections accepted at two status calls; ` +
    `${slowCount} half-sent lines lived ${(life.medianMs / 1000).toFixed(1)} s median, ${(life.maxMs / 1000).toFixed(1)} s at most; the flood sent ${sent} MB`,
);
for (const f of floods) f.socket.destroy();
client.destroy();
await daemon.dispose();
