import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'smol-toml';
import { runCli } from '../helpers/cli.ts';

/** A throwaway HOME with nothing of the user's in it: the command edits files below it only. */
function home(): { dir: string; env: NodeJS.ProcessEnv; run: (...args: string[]) => ReturnType<typeof runCli> } {
  const dir = mkdtempSync(join(tmpdir(), 'corral-home-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir };
  delete env.CLAUDE_CONFIG_DIR;
  delete env.CODEX_HOME;
  return { dir, env, run: (...args) => runCli(['integration', ...args], { env }) };
}

function ourCommands(settings: { hooks?: Record<string, Array<{ hooks: Array<{ command: string }> }>> }): string[] {
  return Object.values(settings.hooks ?? {}).flatMap((entries) => entries.flatMap((entry) => entry.hooks.map((hook) => hook.command))).filter((c) => /report --hook/.test(c));
}

describe('corral integration install, uninstall and status', () => {
  it("adds Claude Code's hooks once, keeps the user's own, and uninstall restores the file byte for byte", async () => {
    const h = home();
    const file = join(h.dir, '.claude', 'settings.json');
    mkdirSync(join(h.dir, '.claude'));
    // Odd spacing and key order on purpose: only a byte copy brings these back.
    const original = '{"model":"opus",   "hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}';
    writeFileSync(file, original, { mode: 0o640 });
    assert.match((await h.run('status', 'claude')).stdout, /claude: not installed/);

    const first = await h.run('install', 'claude');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /claude: installed/);
    const installed = readFileSync(file, 'utf8');
    const settings = JSON.parse(installed);
    assert.equal(settings.model, 'opus');
    assert.equal(settings.hooks.Stop[0].hooks[0].command, 'say done', "the user's hook stays, first");
    assert.ok(ourCommands(settings).some((c) => c.endsWith('report --hook claude')));
    assert.equal(statSync(file).mode & 0o777, 0o640, 'the mode is kept');
    assert.equal(readFileSync(`${file}.corral-backup`, 'utf8'), original);

    const again = await h.run('install', 'claude');
    assert.match(again.stdout, /already installed/);
    assert.equal(readFileSync(file, 'utf8'), installed, 'a second install changes nothing');
    assert.match((await h.run('status', 'claude', '--json')).stdout, /"installed": true/);

    const removed = await h.run('uninstall', 'claude');
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /byte for byte/);
    assert.equal(readFileSync(file, 'utf8'), original);
    assert.equal(existsSync(`${file}.corral-backup`), false);
    assert.match((await h.run('uninstall', 'claude')).stdout, /not installed, nothing changed/);
  });

  it('removes only its own hooks when the user changed the file after install', async () => {
    const h = home();
    await h.run('install', 'gemini');
    const file = join(h.dir, '.gemini', 'settings.json');
    const settings = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(ourCommands(settings).length, settings.hooks && Object.keys(settings.hooks).length);
    writeFileSync(file, JSON.stringify({ ...settings, ui: { theme: 'Dracula' } }));
    const removed = await h.run('uninstall', 'gemini');
    assert.match(removed.stdout, /removed Corral's hooks only/);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { ui: { theme: 'Dracula' } });
  });

  it('removes a settings file it created when nothing was there before', async () => {
    const h = home();
    const file = join(h.dir, '.qwen', 'settings.json');
    await h.run('install', 'qwen');
    assert.ok(existsSync(file));
    assert.match((await h.run('uninstall', 'qwen')).stdout, /byte for byte/);
    assert.equal(existsSync(file), false);
  });

  it("chains Codex's notify to the user's own in config.toml, under CODEX_HOME, and puts the line back", async () => {
    const h = home();
    const codexHome = join(h.dir, 'codex-home');
    mkdirSync(codexHome);
    h.env.CODEX_HOME = codexHome;
    const file = join(codexHome, 'config.toml');
    const original = 'model = "gpt-5"\nnotify = ["notify-send", "Codex"]\n\n[profiles.x]\nmodel = "o3"\n';
    writeFileSync(file, original);
    assert.equal((await h.run('install', 'codex')).code, 0);
    const config = parse(readFileSync(file, 'utf8')) as { notify: string[]; model: string; profiles: unknown };
    assert.deepEqual(config.notify.slice(-5), ['report', '--hook', 'codex', '--chain', '["notify-send","Codex"]']);
    assert.equal(config.model, 'gpt-5');
    assert.match((await h.run('install', 'codex')).stdout, /already installed/);
    // Changed since install: only the notify line goes back to the user's.
    writeFileSync(file, `${readFileSync(file, 'utf8')}# mine\n`);
    assert.match((await h.run('uninstall', 'codex')).stdout, /removed Corral's hooks only/);
    assert.equal(readFileSync(file, 'utf8'), `${original}# mine\n`);
  });

  it('refuses an agent without an integration and a settings file that is not JSON, changing nothing', async () => {
    const h = home();
    const unknown = await h.run('install', 'bash');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /integration_unsupported/);
    mkdirSync(join(h.dir, '.claude'));
    writeFileSync(join(h.dir, '.claude', 'settings.json'), '{ not json');
    const broken = await h.run('install', 'claude');
    assert.match(broken.stderr, /integration_unreadable_file/);
    assert.equal(readFileSync(join(h.dir, '.claude', 'settings.json'), 'utf8'), '{ not json');
    assert.equal(existsSync(join(h.dir, '.claude', 'settings.json.corral-backup')), false);
  });

  it("says when a project's settings or the user's already hold Corral's hooks: the agent would run both", async () => {
    const h = home();
    const project = join(h.dir, 'src', 'app');
    mkdirSync(join(project, '.git'), { recursive: true });
    mkdirSync(join(project, 'lib'));
    const userFile = join(h.dir, '.claude', 'settings.json');
    const projectFile = join(project, '.claude', 'settings.local.json');
    const installed = await runCli(['integration', 'install', 'claude'], { env: h.env, cwd: join(project, 'lib') });
    assert.equal(installed.code, 0, installed.stderr);
    assert.doesNotMatch(installed.stdout, /also in/, 'no other file holds them yet');

    // The project's own file too, from a folder below it: the user's file is named.
    const both = await runCli(['integration', 'install', 'claude', '--file', projectFile], { env: h.env, cwd: join(project, 'lib') });
    assert.equal(both.code, 0, both.stderr);
    assert.match(both.stdout, new RegExp(`claude: Corral's hooks are also in ${userFile}: claude runs both, so each of its hook events reaches Corral twice \\(a permission request is still decided once\\); to keep one, run: corral integration uninstall claude --file ${userFile}`));
    // And the user's file, seen from inside the project, names the project's.
    const status = await runCli(['integration', 'status', 'claude', '--json'], { env: h.env, cwd: join(project, 'lib') });
    assert.deepEqual(JSON.parse(status.stdout).alsoIn, [projectFile]);
    // Outside the project only the user's own file is read.
    const outside = await runCli(['integration', 'status', 'claude', '--json'], { env: h.env, cwd: h.dir });
    assert.deepEqual(JSON.parse(outside.stdout).alsoIn, []);
  });
});
