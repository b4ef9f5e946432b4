// What a hostile neighbour can do to the pty host, measured on a real daemon and its host:
// - a process inside a pane connects to the host's socket and says hello: what it is told, whether
//   what it types reaches another pane, and whether the daemon still holds its panes afterwards;
// - 24 connections from outside every pane each announce a frame of 16 MiB and send all of it but
//   its last byte: the host's RSS before, while they hang and after they closed;
// - 500 connections that never say a word: how many the host still holds after 12 s.
// Not a benchmark (run.ts runs only bench/*.ts). Run alone: node --import tsx bench/probes/host-bounds.ts
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDaemon } from '../../harness/daemon.ts';
import { connectCalling } from '../../harness/raw-client.ts';
import { rssKiB } from '../../harness/proc.ts';
import { sleep } from '../../harness/wait.ts';

const INTRUDER = fileURLToPath(new URL('../../test/fixtures/host-intruder.mjs', import.meta.url));
const FLOODERS = 24;
const ANNOUNCED_BYTES = 16 * 1024 * 1024;
const IDLE_CONNECTIONS = 500;
const IDLE_WAIT_MS = 12_000;
const SETTLE_MS = 3_000;

const mib = (kib: number) => +(kib / 1024).toFixed(1);

function open(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves once `socket` has handed `data` to the kernel or was closed by the host. */
function send(socket: Socket, data: Buffer): Promise<void> {
  return new Promise((resolve) => {
    socket.on('error', () => resolve());
    socket.once('close', () => resolve());
    socket.write(data, () => resolve());
  });
}

const daemon = await startDaemon();
try {
  const { call, client } = await connectCalling(daemon);
  const [hostPid] = daemon.hostPids();
  const hostSocket = `${daemon.socket}.host`;
  const victim = await call('pane.spawn', { command: 'bash', args: ['--norc', '--noprofile'], cwd: daemon.dir, cols: 80, rows: 12 });
  await call('pane.send', { target: victim.id, text: 'echo the-victim-s-secret', keys: ['Enter'] });

  // 1. From inside a pane.
  const hijacked = join(daemon.dir, 'hijacked');
  const report = join(daemon.dir, 'intruder.json');
  const intruder = await call('pane.spawn', { command: process.execPath, args: [INTRUDER, '--type-file', hijacked, '--out', report], cwd: daemon.dir });
  for (let i = 0; i < 400 && !existsSync(report); i++) await sleep(25);
  await sleep(500);
  const told = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : null;
  const listed = (await call('pane.list')).panes.map((pane: { id: string; state: string }) => `${pane.id} ${pane.state}`);
  let victimAnswers = false;
  try {
    await call('pane.send', { target: victim.id, text: 'echo still-$((40 + 2))', keys: ['Enter'] });
    for (let i = 0; i < 200 && !victimAnswers; i++, await sleep(25)) victimAnswers = (await call('pane.read', { target: victim.id })).text.includes('still-42');
  } catch {
    victimAnswers = false;
  }
  const fromPane = {
    intruderPid: intruder.pid,
    reply: told?.reply ?? 'no report',
    reason: told?.reason ?? null,
    panesLearned: told?.panes.length ?? 0,
    replayBytesLearned: told?.replayBytes ?? 0,
    typedIntoAnotherPane: existsSync(hijacked),
    panesAfter: listed,
    victimAnswersAfter: victimAnswers,
  };

  // 2. Half-sent frames of 16 MiB.
  await sleep(SETTLE_MS);
  const rssStart = rssKiB(hostPid!);
  const header = Buffer.alloc(5);
  header.writeUInt32BE(ANNOUNCED_BYTES, 0);
  header.writeUInt8(1, 4);
  const body = Buffer.alloc(ANNOUNCED_BYTES - 2, 0x20);
  const flooders: Socket[] = [];
  for (let i = 0; i < FLOODERS; i++) {
    try {
      flooders.push(await open(hostSocket));
    } catch {
      // refused at once
    }
  }
  await Promise.all(flooders.map((socket) => send(socket, Buffer.concat([header, body]))));
  await sleep(SETTLE_MS);
  const rssHanging = rssKiB(hostPid!);
  const flooding = flooders.filter((socket) => !socket.destroyed).length;
  for (const socket of flooders) socket.destroy();
  await sleep(SETTLE_MS);
  const rssAfter = rssKiB(hostPid!);

  // 3. Connections that never speak.
  const idle: Socket[] = [];
  for (let i = 0; i < IDLE_CONNECTIONS; i++) {
    try {
      const socket = await open(hostSocket);
      socket.on('error', () => undefined);
      socket.resume();
      idle.push(socket);
    } catch {
      // refused at once
    }
  }
  await sleep(IDLE_WAIT_MS);
  const idleOpen = idle.filter((socket) => !socket.destroyed && !socket.readableEnded).length;
  for (const socket of idle) socket.destroy();
  client.close();

  const result = {
    probe: 'host-bounds',
    fromPane,
    halfSentFrames: { connections: FLOODERS, stillOpen: flooding, rssStartMiB: mib(rssStart), rssWhileHangingMiB: mib(rssHanging), rssAfterCloseMiB: mib(rssAfter) },
    idleConnections: { opened: idle.length, stillOpenAfterMs: IDLE_WAIT_MS, stillOpen: idleOpen },
  };
  console.log(JSON.stringify(result));
  console.log(
    `from a pane: ${fromPane.reply}${fromPane.reason ? ` (${fromPane.reason})` : ''}, learned ${fromPane.panesLearned} panes and ${fromPane.replayBytesLearned} ring bytes, ` +
      `typed into another pane: ${fromPane.typedIntoAnotherPane}, victim answers after: ${fromPane.victimAnswersAfter}; ` +
      `${FLOODERS} half-sent 16 MiB frames: host RSS ${result.halfSentFrames.rssStartMiB} -> ${result.halfSentFrames.rssWhileHangingMiB} MiB, ` +
      `${result.halfSentFrames.rssAfterCloseMiB} MiB after they closed; ${idleOpen} of ${idle.length} idle connections open after ${IDLE_WAIT_MS / 1000} s`,
  );
} finally {
  await daemon.dispose();
  rmSync(daemon.dir, { recursive: true, force: true });
}
