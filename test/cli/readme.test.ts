import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The shell blocks under a heading of the README, each line as written. */
function shellBlock(heading: string): string[] {
  const section = README.slice(README.indexOf(`## ${heading}`));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  assert.ok(block, `a sh block under "${heading}"`);
  return block[1]!.split('\n').filter((line) => line.trim() !== '');
}

/**
 * Runs one README line with sh, as a person pastes it into a shell whose PATH the first command set.
 * A line that serves until stopped (`corral web`) is stopped as a person does, with Ctrl-C, once its
 * output matches `stopAt`.
 */
function shell(line: string, env: NodeJS.ProcessEnv, cwd: string, stopAt?: RegExp): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', line], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      if (stopAt?.test(stdout)) child.kill('SIGINT');
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Modification times of the built files: a command that rebuilt one changes it. */
function builtFiles(): Map<string, number> {
  const times = new Map<string, number>();
  for (const folder of ['dist/cli', 'dist/terminal', 'native/build/Release']) {
    for (const name of readdirSync(join(ROOT, folder))) times.set(`${folder}/${name}`, statSync(join(ROOT, folder, name)).mtimeMs);
  }
  return times;
}

describe('the README, as a new user follows it', () => {
  const session = useDaemon();

  it('names one form, corral on the PATH from the first command, and never npx', () => {
    const [first] = shellBlock('Set up');
    assert.match(first!, /^npm ci && export PATH="\$PWD\/bin:\$PATH"/);
    for (const file of ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]) {
      assert.doesNotMatch(readFileSync(join(ROOT, file), 'utf8'), /npx corral/, `${file} runs npx corral`);
    }
  });

  it('runs the tour as written with no error, and rebuilds nothing', async () => {
    await runCli(['--version']); // a bundle made stale by an edit in this checkout is rebuilt here, not in the tour
    const before = builtFiles();
    const env = { ...process.env, PATH: `${join(ROOT, 'bin')}:${process.env.PATH}`, CORRAL_SOCKET: session.daemon.socket };
    let read = '';
    const tour = shellBlock('A short tour');
    assert.match(tour.at(-1)!, /^corral web\b/, 'the tour ends with corral web');
    for (const line of tour) {
      if (line.startsWith('corral web')) {
        // On port 0: the README's fixed port may be held by a person's own `corral web` or another test.
        const served = await shell(`exec ${line.replace(/#.*$/, '').trim()} --port 0`, env, session.daemon.dir, /https?:\/\/\S+#token=\S+/);
        assert.match(/https?:\/\/\S+/.exec(served.stdout)?.[0] ?? '', /^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+$/, served.stderr);
        assert.equal(served.code, 0, `${line}\n${served.stderr}`);
        // Its stderr is its log: a line of what it serves, never an error.
        assert.doesNotMatch(served.stderr, /error|fail|refus/i, line);
        continue;
      }
      // A person reads once the echo has run: its output line, not only the typed command.
      if (line.includes('pane read')) await waitFor(async () => /^hello$/m.test((await session.call('pane.read', { target: 'demo' })).text), { what: 'the echo' });
      const result = await shell(line, env, session.daemon.dir);
      assert.equal(result.code, 0, `${line}\n${result.stderr}`);
      assert.equal(result.stderr, '', line);
      if (line.includes('pane read')) read = result.stdout;
    }
    assert.match(read, /^hello$/m);
    assert.deepEqual(builtFiles(), before);
  });
});
