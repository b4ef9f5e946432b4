// The state file is read as manifests are: a regular file only, opened without blocking, read up to
// its cap, this user's own and 0600. One that cannot be used is moved aside under a timestamped name,
// never overwritten, and the log says why; the daemon starts without it, at once.
import assert from 'node:assert/strict';
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { registryFilePath } from '../../../src/daemon/private-file.ts';
import { mkfifo } from '../../manifest-store/hostile-files.ts';
import { makeTempDir, startDaemon } from '../../../harness/daemon.ts';
import { connectCalling as connect } from '../../../harness/raw-client.ts';

/** A state file as a daemon writes it, with one pane whose host is gone: the next daemon lists it lost. */
function storedState(socket: string, panes: unknown[] = [storedPane('w1:p1', 'kept')]): string {
  return JSON.stringify({ version: 1, socket, savedAt: Date.now(), nextPane: 5, panes });
}

function storedPane(id: string, name: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id, name, workspace: 'w1', command: 'sleep', args: ['100'], cwd: '/', env: { PLAIN: 'yes' }, cols: 80, rows: 24,
    createdAt: 1, pid: 999_999, state: 'running', agent: null, agentState: 'unknown', session: null, arbiter: null, ...extra,
  };
}

interface Prepared {
  dir: string;
  socket: string;
  file: string;
}

function prepare(): Prepared {
  const dir = makeTempDir();
  const socket = join(dir, 'corral.sock');
  const file = registryFilePath(socket, { XDG_STATE_HOME: join(dir, 'state') });
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  return { dir, socket, file };
}

/** The names moved aside next to the state file. */
function asideOf(file: string): string[] {
  const folder = join(file, '..');
  const base = file.slice(folder.length + 1);
  return readdirSync(folder).filter((name) => name.startsWith(`${base}.unusable-`)).map((name) => join(folder, name));
}

function logLines(stderr: string): Array<Record<string, any>> {
  return stderr.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, any>);
}

/**
 * Starts a daemon over the prepared folder and checks: it listens, the log names `reason` with the
 * name the file was moved to, that name holds what was there, the daemon writes a fresh regular
 * 0600 file, and it lists the panes `listed`.
 */
async function startsWithout(prepared: Prepared, reason: string, listed: string[] = []): Promise<{ aside: string; log: Record<string, any> }> {
  const daemon = await startDaemon({ dir: prepared.dir, socket: prepared.socket });
  try {
    const warning = logLines(daemon.stderr()).find((line) => line.reason !== undefined && line.file === prepared.file);
    assert.ok(warning, `the log says why the state file was not used:\n${daemon.stderr()}`);
    assert.equal(warning.reason, reason, warning.detail);
    const [aside, ...more] = asideOf(prepared.file);
    assert.ok(aside, 'the file is moved aside');
    assert.deepEqual(more, [], 'moved once');
    assert.equal(warning.movedTo, aside);
    assert.match(aside, /\.unusable-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    const fresh = lstatSync(prepared.file);
    assert.ok(fresh.isFile(), 'the daemon writes a new state file in its place');
    assert.equal(fresh.mode & 0o777, 0o600);
    const client = await connect(daemon);
    assert.deepEqual((await client.call('pane.list')).panes.map((pane: { id: string }) => pane.id), listed);
    client.client.close();
    return { aside, log: warning };
  } finally {
    await daemon.dispose();
  }
}

function cleanUp(prepared: Prepared): void {
  rmSync(prepared.dir, { recursive: true, force: true });
}

describe('a state file the daemon cannot use', () => {
  it('is a FIFO: the start does not block, and the FIFO itself is moved aside', async () => {
    const prepared = prepare();
    try {
      mkfifo(prepared.file);
      // startDaemon's own guard fails a start that does not listen in time: a blocking open never would.
      const { aside, log } = await startsWithout(prepared, 'not_regular_file');
      assert.match(log.detail, /is a FIFO, not a regular file/);
      assert.ok(lstatSync(aside).isFIFO());
    } finally {
      cleanUp(prepared);
    }
  });

  it('is a symlink to /dev/zero: refused at the open, nothing read through it', async () => {
    const prepared = prepare();
    try {
      symlinkSync('/dev/zero', prepared.file);
      const { aside, log } = await startsWithout(prepared, 'symlink');
      assert.match(log.detail, /is a symbolic link/);
      assert.ok(lstatSync(aside).isSymbolicLink(), 'the link is moved, not what it names');
    } finally {
      cleanUp(prepared);
    }
  });

  it('is a symlink to a good state file elsewhere: not followed, and its target is left alone', async () => {
    const prepared = prepare();
    try {
      const elsewhere = join(prepared.dir, 'elsewhere.json');
      const content = storedState(prepared.socket);
      writeFileSync(elsewhere, content, { mode: 0o600 });
      symlinkSync(elsewhere, prepared.file);
      await startsWithout(prepared, 'symlink');
      assert.equal(readFileSync(elsewhere, 'utf8'), content);
    } finally {
      cleanUp(prepared);
    }
  });

  it('is not JSON: kept byte for byte under its new name', async () => {
    const prepared = prepare();
    try {
      writeFileSync(prepared.file, '{"version":1,"panes":[', { mode: 0o600 });
      const { aside, log } = await startsWithout(prepared, 'bad_json');
      assert.match(log.detail, /is not JSON/);
      assert.equal(readFileSync(aside, 'utf8'), '{"version":1,"panes":[');
    } finally {
      cleanUp(prepared);
    }
  });

  it('is of another version or shape', async () => {
    const prepared = prepare();
    try {
      writeFileSync(prepared.file, JSON.stringify({ version: 2, panes: [] }), { mode: 0o600 });
      const { log } = await startsWithout(prepared, 'wrong_shape');
      assert.match(log.detail, /version 2; this daemon reads version 1/);
    } finally {
      cleanUp(prepared);
    }
  });

  it('is readable by others (mode 0644)', async () => {
    const prepared = prepare();
    try {
      writeFileSync(prepared.file, storedState(prepared.socket), { mode: 0o600 });
      chmodSync(prepared.file, 0o644);
      const { aside, log } = await startsWithout(prepared, 'loose_mode');
      assert.match(log.detail, /has mode 0644/);
      assert.equal(statSync(aside).mode & 0o777, 0o644);
    } finally {
      cleanUp(prepared);
    }
  });

  it('belongs to another user', { skip: process.getuid?.() !== 0 && 'chown needs root' }, async () => {
    const prepared = prepare();
    try {
      writeFileSync(prepared.file, storedState(prepared.socket), { mode: 0o600 });
      chownSync(prepared.file, 65534, 65534);
      const { log } = await startsWithout(prepared, 'another_owner');
      assert.match(log.detail, /is owned by uid 65534/);
    } finally {
      cleanUp(prepared);
    }
  });

  it('is over the 32 MiB cap (its size alone says so: nothing is read)', async () => {
    const prepared = prepare();
    try {
      writeFileSync(prepared.file, '', { mode: 0o600 });
      truncateSync(prepared.file, 33 * 1024 * 1024);
      const { log } = await startsWithout(prepared, 'too_large');
      assert.match(log.detail, /34603008 bytes exceed the state file size limit of 33554432/);
    } finally {
      cleanUp(prepared);
    }
  });

  it('holds panes of a wrong shape: the good one is listed lost, the rest left out, and the file kept aside', async () => {
    const prepared = prepare();
    try {
      const panes = [storedPane('w1:p1', 'good'), storedPane('w1:p2', 'bad', { cols: 'wide' }), storedPane('w1:p1', 'twin'), storedPane('w1:p3', 'envless', { env: ['x'] }), storedPane('w1:p4', 'a name/with a slash'), 'junk'];
      const content = storedState(prepared.socket, panes);
      writeFileSync(prepared.file, content, { mode: 0o600 });
      const { aside, log } = await startsWithout(prepared, 'wrong_shape', ['w1:p1']);
      assert.equal(log.panesKept, 1);
      assert.match(log.detail, /5 of its panes left out: panes\[1\]: "cols" and "rows" are not a pane size; panes\[2\]: repeats the id w1:p1; panes\[3\]: "env" is not an object of strings; panes\[4\]: "name" is not a pane name or null; panes\[5\]: not an object/);
      assert.equal(readFileSync(aside, 'utf8'), content);
    } finally {
      cleanUp(prepared);
    }
  });
});
