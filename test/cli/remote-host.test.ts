import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { userInfo } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { FAKE_AGENT } from '../helpers/agent-lab.ts';
import { runCli } from '../helpers/cli.ts';
import { CORRAL_BIN, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { startSshd, type LocalSshd } from '../../harness/sshd.ts';

/** The longest any one step of the streaming test may take; a hang guard, not a figure. */
const STEP_MS = 90_000;

/** The first line a follower prints, and a promise that rejects with its stderr if it exits first. */
function followStream(child: ChildProcess): { firstLine: Promise<string>; exited: Promise<never> } {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const firstLine = new Promise<string>((resolve) =>
    child.stdout!.on('data', (text: string) => {
      stdout += text;
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    }),
  );
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`the follower did not start: ${error.message}`)));
    child.once('exit', (code, signal) => reject(new Error(`the follower exited (code ${code}, signal ${signal}) before its first event; stdout ${JSON.stringify(stdout)}, stderr:\n${stderr}`)));
  });
  exited.catch(() => {}); // read by the steps that race it; an exit after the test is not a failure
  return { firstLine, exited };
}

/** `promise`, or a rejection naming `what` after `ms`. */
async function bounded<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `check` until it holds, failing after `ms` or as soon as `failed` rejects; the polling stops either way. */
async function until(ms: number, what: string, failed: Promise<never>, check: () => Promise<boolean>): Promise<void> {
  let stopped = false;
  const poll = (async () => {
    while (!stopped && !(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
  })();
  try {
    await bounded(ms, what, Promise.race([poll, failed]));
  } finally {
    stopped = true;
  }
}

describe('corral --host, through ssh to a throwaway sshd on localhost', () => {
  let sshd: LocalSshd;
  let daemon: DaemonProcess;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    sshd = await startSshd();
    daemon = await startDaemon();
    env = { ...process.env, CORRAL_SSH: sshd.sshCommand, CORRAL_REMOTE_COMMAND: `${process.execPath} ${CORRAL_BIN}`, CORRAL_HOST: undefined };
  });

  after(async () => {
    await daemon?.dispose();
    await sshd?.stop();
  });

  /** The CLI with --host: it runs over ssh, and the remote corral reaches the test daemon by --socket. */
  const remote = (...args: string[]) => runCli(['--host', sshd.host, '--socket', daemon.socket, ...args], { env, timeoutMs: 90_000 });

  it('runs a command on the host named by CORRAL_HOST and prints its output', async () => {
    const status = await runCli(['--socket', daemon.socket, 'server', 'status', '--json'], { env: { ...env, CORRAL_HOST: sshd.host }, timeoutMs: 90_000 });
    assert.equal(status.code, 0, status.stderr);
    assert.equal(JSON.parse(status.stdout).pid, daemon.pid);
  });

  it('drives three fake agents from prompt to done, one blocked and answered, with exit codes intact', async () => {
    const names = ['north', 'south', 'west'];
    for (const name of names) {
      const spawned = await remote('pane', 'spawn', '--json', '--name', name, '--', '/usr/bin/env', 'CORRAL_AGENT=claude', process.execPath, FAKE_AGENT);
      assert.equal(spawned.code, 0, spawned.stderr);
      // No --cwd: the spawn ran on the host, so its folder is the remote login's home, not this folder.
      assert.equal(JSON.parse(spawned.stdout).cwd, userInfo().homedir);
      assert.notEqual(JSON.parse(spawned.stdout).cwd, process.cwd());
    }

    assert.equal((await remote('agent', 'wait', ...names, '--until', 'idle', '--all', '--timeout', '60000')).code, 0);
    const { seq } = JSON.parse((await remote('agent', 'list', '--json')).stdout);
    for (const [name, text] of [['north', 'write the parser'], ['south', 'perm'], ['west', 'write the tests']]) {
      const prompted = await remote('agent', 'prompt', name!, text!);
      assert.equal(prompted.code, 0, prompted.stderr);
    }
    assert.equal((await remote('agent', 'wait', 'south', '--until', 'blocked', '--since-seq', String(seq), '--timeout', '60000')).code, 0);
    const answered = await remote('agent', 'answer', 'south', '1');
    assert.equal(answered.code, 0, answered.stderr);
    const done = await remote('agent', 'wait', ...names, '--until', 'done', '--all', '--since-seq', String(seq), '--timeout', '60000', '--json');
    assert.equal(done.code, 0, done.stderr);
    assert.deepEqual(JSON.parse(done.stdout).states, { north: 'done', south: 'done', west: 'done' });

    // The remote exit codes come back unchanged: 124 on a timeout, 3 for an unknown target.
    assert.equal((await remote('agent', 'wait', 'north', '--until', 'blocked', '--timeout', '100')).code, 124);
    assert.equal((await remote('agent', 'wait', 'nobody', '--timeout', '100')).code, 3);
  });

  it('streams events from the host as they happen', async () => {
    const follow = spawn(process.execPath, [CORRAL_BIN, '--host', sshd.host, '--socket', daemon.socket, 'events', '--follow', '--json', '--filter', 'kind:pane.created'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      // Each step is checked and bounded: a follower that never started, or a spawn that failed, fails
      // the test at once with its cause instead of leaving it waiting for an event that cannot come.
      const stream = followStream(follow);
      await until(STEP_MS, 'the remote follower to connect to the daemon', stream.exited, async () => {
        const status = await runCli(['--socket', daemon.socket, 'server', 'status', '--json']);
        assert.equal(status.code, 0, status.stderr);
        return JSON.parse(status.stdout).connections >= 2;
      });
      const spawned = await remote('pane', 'spawn', '--name', 'streamed', '--', '/bin/sh', '-c', 'sleep 30');
      assert.equal(spawned.code, 0, `the remote spawn failed: ${spawned.stderr}`);
      const event = JSON.parse(await bounded(STEP_MS, 'the pane.created event', Promise.race([stream.firstLine, stream.exited])));
      assert.equal(event.kind, 'pane.created');
      assert.equal(event.pane.name, 'streamed');
    } finally {
      follow.kill('SIGTERM');
    }
  });

  it('says the host is unreachable with exit 4', async () => {
    const result = await runCli(['--host', 'nobody@127.0.0.1', 'server', 'status'], {
      env: { ...env, CORRAL_SSH: 'ssh -o ConnectTimeout=5 -o Port=1 -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null' },
      timeoutMs: 30_000,
    });
    assert.equal(result.code, 4);
    assert.match(result.stderr, /could not reach nobody@127\.0\.0\.1/);
  });
});
