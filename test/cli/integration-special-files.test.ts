// `corral integration` reads the agents' settings files as manifests are read: a FIFO or device is
// refused at once with a clear error and nothing written, and a symlinked settings file stays a link
// whose target gets the hooks and, on uninstall, its original bytes back.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { mkfifo } from '../manifest-store/hostile-files.ts';

/** Only a guard against a hang: a blocking open never returns at all. */
const HANG_GUARD_MS = 60_000;

function home(): { dir: string; run: (...args: string[]) => ReturnType<typeof runCli> } {
  const dir = mkdtempSync(join(tmpdir(), 'corral-home-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir };
  delete env.CLAUDE_CONFIG_DIR;
  delete env.CODEX_HOME;
  return { dir, run: (...args) => runCli(['integration', ...args], { env, timeoutMs: HANG_GUARD_MS }) };
}

describe('corral integration over settings files that are no regular files, or links', () => {
  it('refuses a FIFO for install, uninstall and status at once, writing nothing', async () => {
    const h = home();
    const folder = join(h.dir, '.claude');
    mkdirSync(folder);
    const file = join(folder, 'settings.json');
    mkfifo(file);
    for (const verb of ['install', 'uninstall', 'status']) {
      const result = await h.run(verb, 'claude');
      assert.equal(result.code, 1, `${verb}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, /settings\.json: is a FIFO, not a regular file.*nothing was changed/, verb);
      assert.match(result.stderr, /integration_unreadable_file/, verb);
    }
    assert.ok(lstatSync(file).isFIFO(), 'the FIFO is still there');
    assert.deepEqual(readdirSync(folder), ['settings.json'], 'no backup, note or temporary file');
  });

  it("refuses Codex's config.toml when it is a FIFO, and a settings file linked to /dev/zero", async () => {
    const h = home();
    mkdirSync(join(h.dir, '.codex'));
    mkfifo(join(h.dir, '.codex', 'config.toml'));
    const codex = await h.run('install', 'codex');
    assert.equal(codex.code, 1);
    assert.match(codex.stderr, /config\.toml: is a FIFO, not a regular file/);
    mkdirSync(join(h.dir, '.gemini'));
    symlinkSync('/dev/zero', join(h.dir, '.gemini', 'settings.json'));
    const gemini = await h.run('install', 'gemini');
    assert.equal(gemini.code, 1);
    assert.match(gemini.stderr, /settings\.json: is a character device, not a regular file/);
  });

  it('writes through a symlinked settings file to its target, and uninstall puts the target back byte for byte with the link kept', async () => {
    const h = home();
    mkdirSync(join(h.dir, '.claude'));
    mkdirSync(join(h.dir, 'dotfiles'));
    const target = join(h.dir, 'dotfiles', 'claude-settings.json');
    const original = '{"model":"opus",  "theme":"dark"}';
    writeFileSync(target, original, { mode: 0o640 });
    const link = join(h.dir, '.claude', 'settings.json');
    symlinkSync('../dotfiles/claude-settings.json', link);

    const installed = await h.run('install', 'claude');
    assert.equal(installed.code, 0, installed.stderr);
    assert.ok(lstatSync(link).isSymbolicLink(), 'the settings file is still a link');
    assert.equal(readlinkSync(link), '../dotfiles/claude-settings.json', 'to the same target, as written');
    const settings = JSON.parse(readFileSync(target, 'utf8'));
    assert.equal(settings.model, 'opus');
    assert.ok(Object.keys(settings.hooks).length > 0, 'the target holds the hooks');
    assert.equal(statSync(target).mode & 0o777, 0o640, "the target's mode is kept");
    assert.ok(lstatSync(`${link}.corral-backup`).isFile(), 'the backup is a plain copy beside the link');
    assert.equal(readFileSync(`${link}.corral-backup`, 'utf8'), original);
    assert.match((await h.run('status', 'claude')).stdout, /claude: installed/);

    const removed = await h.run('uninstall', 'claude');
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /byte for byte/);
    assert.equal(readlinkSync(link), '../dotfiles/claude-settings.json');
    assert.equal(readFileSync(target, 'utf8'), original);
    assert.equal(statSync(target).mode & 0o777, 0o640);
    assert.deepEqual(readdirSync(join(h.dir, '.claude')), ['settings.json'], 'no backup or note left');
    assert.deepEqual(readdirSync(join(h.dir, 'dotfiles')), ['claude-settings.json'], 'no temporary file left by the target');
  });

  it('creates the missing target of a dangling link, and uninstall removes that target and keeps the link', async () => {
    const h = home();
    mkdirSync(join(h.dir, '.qwen'));
    const link = join(h.dir, '.qwen', 'settings.json');
    const target = join(h.dir, 'dotfiles', 'qwen.json');
    symlinkSync(target, link);
    const installed = await h.run('install', 'qwen');
    assert.equal(installed.code, 0, installed.stderr);
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.ok(JSON.parse(readFileSync(target, 'utf8')).hooks, 'the target was made with the hooks');
    const removed = await h.run('uninstall', 'qwen');
    assert.match(removed.stdout, /byte for byte/);
    assert.equal(readlinkSync(link), target, 'the link is as it was');
    assert.equal(existsSync(target), false, 'what install made is gone');
  });
});
