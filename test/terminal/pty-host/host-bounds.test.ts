import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { HELLO_TIMEOUT_MS, MAX_HOST_CONNECTIONS } from '../../../src/terminal/pty-host/host-server.ts';
import { MAX_HELLO_FRAME_BYTES, MAX_HOST_FRAME_BYTES } from '../../../src/terminal/pty-host/wire.ts';
import { lockFile } from '../../../src/terminal/native.ts';
import { makeTempDir } from '../../../harness/daemon.ts';
import { HostSocket } from '../../helpers/host-wire.ts';
import { waitFor } from '../../../harness/wait.ts';

const HOST_MAIN = fileURLToPath(new URL('../../../src/terminal/pty-host/main.ts', import.meta.url));
const INTRUDER = fileURLToPath(new URL('../../fixtures/host-intruder.mjs', import.meta.url));

function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/**
 * A real pty host whose daemon is this test process: it holds the lock the host is given, as a
 * daemon does (created with its pid, a record lock held on it), so its connections are the
 * daemon's and meet the host's bounds. Nothing here may open the lock file again: closing any
 * descriptor of it would drop this process's record lock.
 */
describe('the pty host is bounded, even for its own daemon', () => {
  let dir = '';
  let socket = '';
  let lockFd = -1;
  let host: ChildProcess | undefined;
  let log = '';
  /** Attached for the whole suite: a host with no daemon and no pane exits. */
  let attached: HostSocket | undefined;

  before(async () => {
    dir = makeTempDir();
    const lock = join(dir, 'corral.sock.lock');
    lockFd = openSync(lock, 'wx', 0o600);
    writeSync(lockFd, `${process.pid}\n`);
    assert.ok(lockFile(lockFd), 'this process holds the lock');
    socket = join(dir, 'corral.sock.host');
    host = spawn(process.execPath, ['--import', 'tsx', HOST_MAIN, '--socket', socket, '--lock', lock], {
      env: { ...process.env, CORRAL_PTY_HOST_WATCH_PID: String(process.pid) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    host.stderr!.setEncoding('utf8');
    await new Promise<void>((resolve, reject) => {
      host!.stderr!.on('data', (text: string) => {
        log += text;
        if (log.includes('listening on')) resolve();
      });
      host!.once('exit', (code) => reject(new Error(`the host exited with ${code}:\n${log}`)));
    });
    attached = await HostSocket.connect(socket);
    attached.hello();
    assert.equal((await attached.message()).t, 'hello');
  });

  after(async () => {
    attached?.close();
    if (host && host.exitCode === null) {
      host.kill('SIGTERM');
      await new Promise((resolve) => host!.once('exit', resolve));
    }
    closeSync(lockFd);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a connection that never says hello is refused (hello_timeout) and closed; one that said hello stays', async () => {
    const started = Date.now();
    const silent = await HostSocket.connect(socket);
    const reply = await silent.message(HELLO_TIMEOUT_MS + 10_000);
    assert.deepEqual([reply.t, reply.reason], ['refused', 'hello_timeout']);
    assert.ok(Date.now() - started >= HELLO_TIMEOUT_MS, `refused after ${Date.now() - started} ms, not before ${HELLO_TIMEOUT_MS}`);
    await silent.closed;
    assert.equal(attached!.socket.destroyed, false, 'the attached daemon is not touched');
  });

  it('a frame over the small limit before hello is refused (frame_too_large) at once, and 24 of 16 MiB leave the host no bigger', async () => {
    const base = rssMiB(host!.pid!);
    const header = Buffer.alloc(5);
    header.writeUInt32BE(MAX_HOST_FRAME_BYTES, 0);
    header.writeUInt8(1, 4);
    const frame = Buffer.concat([header, Buffer.alloc(MAX_HOST_FRAME_BYTES - 2, 0x20)]);
    for (let i = 0; i < 24; i++) {
      const flooder = await HostSocket.connect(socket);
      flooder.socket.write(frame);
      const reply = await flooder.message();
      assert.deepEqual([reply.t, reply.reason], ['refused', 'frame_too_large'], JSON.stringify(reply));
      assert.match(reply.message, new RegExp(`over the limit of ${MAX_HELLO_FRAME_BYTES}`));
      flooder.close();
    }
    const grown = rssMiB(host!.pid!) - base;
    assert.ok(grown < 16, `the host grew by ${grown.toFixed(1)} MiB under 24 frames of 16 MiB`);
  });

  it('a frame the daemon sent half of is let go when its connection closes: the host gives the memory back', async () => {
    // A pane keeps the host running while no daemon is attached.
    attached!.send({ t: 'spawn', id: 1, meta: null, command: 'sleep', args: ['600'], cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, cols: 80, rows: 24 });
    assert.equal((await attached!.until((message) => message.id === 1)).t, 'spawned');
    const base = rssMiB(host!.pid!);
    const sender = await HostSocket.connect(socket);
    sender.hello();
    await sender.until((message) => message.t === 'hello');
    const header = Buffer.alloc(9);
    header.writeUInt32BE(MAX_HOST_FRAME_BYTES, 0);
    header.writeUInt8(3, 4);
    header.writeUInt32BE(1, 5);
    sender.socket.write(Buffer.concat([header, Buffer.alloc(MAX_HOST_FRAME_BYTES - 6, 0x20)]));
    await waitFor(() => rssMiB(host!.pid!) > base + 12, { what: 'the host to read most of the frame', timeoutMs: 20_000 });
    sender.close();
    await waitFor(() => rssMiB(host!.pid!) < base + 8, { what: `the host back near ${base.toFixed(1)} MiB (now ${rssMiB(host!.pid!).toFixed(1)})`, timeoutMs: 30_000 });
    // The sender had taken over; attach again for the tests after this one.
    attached = await HostSocket.connect(socket);
    attached.hello();
    assert.equal((await attached.until((message) => message.t === 'hello')).panes.length, 1);
  });

  it(`the connection cap holds at ${MAX_HOST_CONNECTIONS}; refused outsiders take no place, and a place freed is taken again`, async () => {
    // Outsiders (not this process) are refused as they come, so that they never fill the cap.
    const outsiders = await Promise.all(
      Array.from({ length: 10 }, () => promisify(execFile)(process.execPath, [INTRUDER, '--socket', socket, '--listen-ms', '3000'])),
    );
    for (const { stdout } of outsiders) assert.equal(JSON.parse(stdout).reason, 'not_lock_holder');
    // The attached daemon holds one place.
    const held = await Promise.all(Array.from({ length: MAX_HOST_CONNECTIONS - 1 }, () => HostSocket.connect(socket)));
    const extra = await HostSocket.connect(socket);
    const reply = await extra.message();
    assert.deepEqual([reply.t, reply.reason], ['refused', 'too_many_connections'], JSON.stringify(reply));
    await extra.closed;
    for (const connection of held) assert.deepEqual(connection.frames, [], 'each held connection was served, nothing refused');
    // One of them is refused for a bad first frame: the host frees its place as it refuses.
    const bad = held.pop()!;
    bad.socket.write(Buffer.from([0, 0, 0, 3, 1, 0x7b, 0x7d]));
    assert.equal((await bad.message()).reason, 'hello_expected');
    const again = await HostSocket.connect(socket);
    again.hello();
    assert.equal((await again.message()).t, 'hello', 'the freed place is served');
    for (const connection of [...held, again, bad]) connection.close();
  });
});
