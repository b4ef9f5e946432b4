// Hostile manifest folders for the tests: special files, an oversized file, a catastrophic pattern
// and an id that tries to leave its folder, beside one good manifest that must keep working.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Only a guard against a hang: a blocking open or an endless read never returns at all. */
/** How long a load may take once the child's imports are loaded; a blocking open never ends. */
export const HANG_GUARD_MS = 60_000;

export const TEN_MB = 10 * 1024 * 1024;

export function manifestToml(id: string, version: string, body = 'contains = ["ready"]'): string {
  return `id = "${id}"\nversion = "${version}"\n[[rules]]\nid = "r"\nstate = "idle"\n${body}\n`;
}

/**
 * Fills `dir` with: good.toml (id `good`, at `version`), a FIFO zz.toml, zero.toml -> /dev/zero, big.toml of
 * 10 MB, dir.toml (a folder), evil.toml with id `../../evil`, and redos.toml (at `version`) whose
 * rule is `(a+)+$`.
 * Returns the names of the files that must be refused.
 */
export function fillHostile(dir: string, version = '1.0.0'): string[] {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'good.toml'), manifestToml('good', version));
  mkfifo(join(dir, 'zz.toml'));
  symlinkSync('/dev/zero', join(dir, 'zero.toml'));
  writeFileSync(join(dir, 'big.toml'), `${manifestToml('big', '1.0.0')}# ${'x'.repeat(TEN_MB)}\n`);
  mkdirSync(join(dir, 'dir.toml'));
  writeFileSync(join(dir, 'evil.toml'), manifestToml('../../evil', '1.0.0'));
  // Loads (RE2 runs it in linear time); a screen of a's ending in ! is what made backtracking hang.
  writeFileSync(join(dir, 'redos.toml'), manifestToml('redos', version, `line_regex = ['(a+)+$']\nregex = ['(x+x+)+y']`));
  return ['big.toml', 'dir.toml', 'evil.toml', 'zero.toml', 'zz.toml'];
}

export function mkfifo(path: string): void {
  const made = spawnSync('mkfifo', [path], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`mkfifo ${path} failed: ${made.stderr}`);
}

/** The line a guarded child prints once its imports are loaded: the guard counts from there. */
const GUARD_START = 'corral-guard-start';

/**
 * Runs an ES module snippet with tsx in a child, from the project root; its stdout is JSON. The hang
 * guard starts once the snippet's imports are loaded, so that compiling them on a loaded machine is
 * not mistaken for a load that blocks.
 */
export function runGuarded(script: string): Promise<{ timedOut: boolean; status: number | null; stdout: string; stderr: string }> {
  const lines = script.split('\n');
  const lastImport = lines.reduce((last, line, index) => (/^\s*import\s/.test(line) ? index : last), -1);
  lines.splice(lastImport + 1, 0, `process.stderr.write(${JSON.stringify(GUARD_START + '\n')});`);
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', lines.join('\n')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let timedOut = false;
  let guard: NodeJS.Timeout | null = null;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (guard === null && stderr.includes(GUARD_START)) {
      guard = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, HANG_GUARD_MS);
    }
  });
  return new Promise((resolve) => {
    child.on('close', (status) => {
      if (guard !== null) clearTimeout(guard);
      resolve({ timedOut, status, stdout, stderr: stderr.replace(`${GUARD_START}\n`, '') });
    });
  });
}
