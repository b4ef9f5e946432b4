import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { HostSocket } from '../../helpers/host-wire.ts';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

const INTRUDER = fileURLToPath(new URL('../../fixtures/host-intruder.mjs', import.meta.url));

interface IntruderReport {
  pid: number;
  ppid: number;
  reply: 'hello' | 'refused' | 'closed';
  reason: string | null;
  message: string | null;
  panes: Array<{ handle: number; pid: number }>;
  replayBytes: number;
  typed: number;
}

/** The intruder's one line, once it has written it whole. */
async function reportIn(path: string): Promise<IntruderReport> {
  const text = await waitFor(() => (existsSync(path) && readFileSync(path, 'utf8').endsWith('\n') ? readFileSync(path, 'utf8') : ''), {
    what: `the intruder's report in ${path}`,
    timeoutMs: 20_000,
  });
  return JSON.parse(text) as IntruderReport;
}

function stat(pid: number): { state: string; ppid: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, ppid: Number(fields[1]) };
  } catch {
    return null;
  }
}

describe('a pane cannot take over the pty host', () => {
  const session = useDaemon();

  /** A bash pane whose screen shows `secret`, to be spied on and typed into. */
  async function victim(secret: string): Promise<string> {
    const pane = await session.call('pane.spawn', { command: 'bash', args: ['--norc', '--noprofile'], cwd: session.daemon.dir, cols: 80, rows: 12 });
    await session.call('pane.send', { target: pane.id, text: `echo ${secret}`, keys: ['Enter'] });
    await session.screenContains(pane.id, `\n${secret}`);
    return pane.id;
  }

  /** The daemon still steers the pane: what is typed runs, and its output comes back. */
  async function stillServed(target: string, tag: string): Promise<void> {
    assert.equal((await session.call('pane.get', { target })).state, 'running', `${target} is not lost`);
    await session.call('pane.send', { target, text: `echo ${tag}-$((40 + 2))`, keys: ['Enter'] });
    await session.screenContains(target, `${tag}-42`);
  }

  const hostLog = () => readFileSync(`${session.daemon.socket}.host.log`, 'utf8');
  const hostPid = () => session.daemon.hostPids()[0]!;

  it('a process in a pane that says hello is refused (pane_process) and learns nothing; what it types reaches no pane; the daemon stays attached', async () => {
    const target = await victim('the-victims-secret');
    const hijacked = join(session.daemon.dir, 'hijacked-1');
    const out = join(session.daemon.dir, 'intruder-1.json');
    await session.call('pane.spawn', { command: process.execPath, args: [INTRUDER, '--type-file', hijacked, '--out', out], cwd: session.daemon.dir });
    const got = await reportIn(out);
    assert.equal(got.reply, 'refused', JSON.stringify(got));
    assert.equal(got.reason, 'pane_process');
    assert.match(got.message ?? '', /runs inside a pane of this pty host/);
    assert.deepEqual(got.panes, [], 'no handle or pid');
    assert.equal(got.replayBytes, 0, 'no ring');
    assert.equal(got.typed, 16, 'it did type into handles 1 to 16');
    // A pane's input runs in order: once this has run, anything typed before it would have run too.
    await stillServed(target, 'after-1');
    assert.equal(existsSync(hijacked), false, 'nothing it typed ran');
    assert.match(hostLog(), /refused a connection \(pane_process\)/);
    assert.doesNotMatch(session.daemon.stderr(), /pty host went away/);
  });

  it("a pane process that forked twice into a session of its own is still the host's (a subreaper): refused, and reaped when it exits", async () => {
    const target = await victim('another-secret');
    const hijacked = join(session.daemon.dir, 'hijacked-2');
    const out = join(session.daemon.dir, 'intruder-2.json');
    await session.call('pane.spawn', { command: process.execPath, args: [INTRUDER, '--daemonize', '--type-file', hijacked, '--out', out], cwd: session.daemon.dir });
    const got = await reportIn(out);
    assert.equal(got.ppid, hostPid(), 'orphaned, it was taken in by the host, not by init');
    assert.equal(got.reply, 'refused', JSON.stringify(got));
    assert.equal(got.reason, 'pane_process');
    assert.deepEqual(got.panes, []);
    await stillServed(target, 'after-2');
    assert.equal(existsSync(hijacked), false);
    await waitFor(() => stat(got.pid) === null, { what: `the orphan ${got.pid} reaped by the host`, timeoutMs: 10_000 });
  });

  it("a process outside every pane that does not hold the daemon's lock is refused (not_lock_holder), even with its pid written in the lock file", async () => {
    const target = await victim('third-secret');
    const hijacked = join(session.daemon.dir, 'hijacked-3');
    const { stdout } = await promisify(execFile)(process.execPath, [INTRUDER, '--socket', `${session.daemon.socket}.host`, '--type-file', hijacked]);
    const got = JSON.parse(stdout) as IntruderReport;
    assert.equal(got.reply, 'refused', JSON.stringify(got));
    assert.equal(got.reason, 'not_lock_holder');
    assert.match(got.message ?? '', new RegExp(`pid ${session.daemon.pid} holds it`));
    // The pid in the file is anyone's to write; the kernel's record lock on it is not.
    const lock = `${session.daemon.socket}.lock`;
    const real = readFileSync(lock, 'utf8');
    writeFileSync(lock, `${process.pid}\n`);
    try {
      const spoofer = await HostSocket.connect(`${session.daemon.socket}.host`);
      spoofer.hello();
      const reply = await spoofer.message();
      assert.equal(reply.t, 'refused');
      assert.equal(reply.reason, 'not_lock_holder');
      await spoofer.closed;
    } finally {
      writeFileSync(lock, real);
    }
    await stillServed(target, 'after-3');
    assert.equal(existsSync(hijacked), false);
  });
});
