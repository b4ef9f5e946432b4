import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { lockHoldingPid, readLockPid } from '../../../src/terminal/pty-host/daemon-lock.ts';
import { makeTempDir } from '../../../harness/daemon.ts';

const NATIVE = fileURLToPath(new URL('../../../src/terminal/native.ts', import.meta.url));

/** A process that writes its pid into `path`, takes the record lock and says so, as a daemon does. */
function holder(path: string, pid: 'own' | number = 'own') {
  const script = `import { openSync, writeSync } from 'node:fs'; import { lockFile } from ${JSON.stringify(NATIVE)};
    const fd = openSync(${JSON.stringify(path)}, 'w'); writeSync(fd, \`\${${pid === 'own' ? 'process.pid' : pid}}\\n\`);
    if (lockFile(fd)) process.stdout.write('locked\\n'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (text: Buffer) => text.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  return { child, locked };
}

describe("the daemon's lock as the pty host reads it", () => {
  const dir = makeTempDir();
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names the process that wrote its pid and holds the record lock, and no one once it exits', async () => {
    const path = join(dir, 'held.lock');
    const { child, locked } = holder(path);
    await locked;
    assert.equal(lockHoldingPid(path), child.pid);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(readLockPid(path), child.pid, 'the file still names it');
    assert.equal(lockHoldingPid(path), null, 'the kernel dropped its lock');
  });

  it('names no one when the pid written is not the record lock holder', async () => {
    const path = join(dir, 'spoofed.lock');
    const { child, locked } = holder(path, 1);
    await locked;
    try {
      assert.equal(readLockPid(path), 1);
      assert.equal(lockHoldingPid(path), null);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('reads no FIFO, link or device and never blocks on one', () => {
    const fifo = join(dir, 'fifo.lock');
    execFileSync('mkfifo', [fifo]);
    assert.equal(lockHoldingPid(fifo), null);
    assert.equal(readLockPid(fifo), null);
    const link = join(dir, 'link.lock');
    writeFileSync(join(dir, 'target'), `${process.pid}\n`);
    symlinkSync(join(dir, 'target'), link);
    assert.equal(readLockPid(link), null);
    assert.equal(readLockPid('/dev/zero'), null);
    assert.equal(readLockPid(join(dir, 'missing.lock')), null);
  });
});
