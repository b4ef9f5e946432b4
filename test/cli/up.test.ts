import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { connectCalling } from '../../harness/raw-client.ts';
import { FAKE_CLAUDE } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';

/** One `[[agents]]` table of the fake Claude, as TOML lines. */
function fakeAgent(name: string, extra: string[] = [], workMs = 200): string {
  return [
    '[[agents]]',
    `name = "${name}"`,
    `command = [${JSON.stringify(process.execPath)}, ${JSON.stringify(FAKE_CLAUDE)}]`,
    `env = { CORRAL_AGENT = "claude", FAKE_WORK_MS = "${workMs}" }`,
    ...extra,
    '',
  ].join('\n');
}

interface Outcome {
  name: string;
  action: string;
  pane: string | null;
  differences?: string[];
  prompted?: true;
  state?: string;
  worktree?: { path: string; made: boolean };
  error?: { code: string; message: string };
}

describe('corral up and corral down with a fleet file', () => {
  let daemon: DaemonProcess;
  let dir: string;
  let call: (method: string, params?: unknown) => Promise<any>;
  let close: () => void;

  async function connect(): Promise<void> {
    const connected = await connectCalling(daemon);
    call = connected.call;
    close = () => connected.client.close();
  }

  before(async () => {
    daemon = await startDaemon();
    dir = join(daemon.dir, 'project');
    mkdirSync(dir);
    await connect();
  });

  after(async () => {
    close?.();
    await daemon?.dispose();
  });

  const corral = (args: string[], cwd = dir) => runCli(['--socket', daemon.socket, ...args], { cwd });
  /** `corral up --json ...` in the project folder: its exit code and each agent's outcome by name. */
  async function up(...args: string[]): Promise<{ code: number | null; stderr: string; agents: Record<string, Outcome> }> {
    const result = await corral(['--json', 'up', ...args]);
    let agents: Record<string, Outcome> = {};
    try {
      agents = Object.fromEntries((JSON.parse(result.stdout).agents as Outcome[]).map((outcome) => [outcome.name, outcome]));
    } catch {
      assert.fail(`corral up printed no result (exit ${result.code}): ${result.stdout}\n${result.stderr}`);
    }
    return { code: result.code, stderr: result.stderr, agents };
  }
  const screen = async (target: string): Promise<string> => (await call('pane.read', { target, source: 'scrollback' })).text;
  const names = async (): Promise<string[]> => (await call('pane.list')).panes.filter((p: any) => p.state === 'running').map((p: any) => p.name).sort();

  it('starts the agents, types a prompt once at first idle, waits for idle; a second run changes nothing', async () => {
    writeFileSync(join(dir, 'corral.toml'), fakeAgent('alpha', ['prompt = "write the parser"']) + fakeAgent('beta', ['workspace = "team"']));
    const first = await up('--wait', 'idle', '--timeout', '90s');
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual([first.agents.alpha!.action, first.agents.beta!.action], ['started', 'started']);
    assert.equal(first.agents.alpha!.prompted, true);
    assert.equal(first.agents.beta!.prompted, undefined);
    assert.match(first.agents.alpha!.state!, /^(idle|done)$/);
    // --wait counted the turn the prompt started: it has ended when up returns.
    assert.match(await screen('alpha'), /Task complete\./);
    const beta = await call('pane.get', { target: 'beta' });
    assert.deepEqual([beta.workspace, beta.cwd, beta.env.FAKE_WORK_MS], ['team', dir, '200']);

    const second = await up('--wait', 'idle', '--timeout', '90s');
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual([second.agents.alpha!.action, second.agents.beta!.action], ['unchanged', 'unchanged']);
    assert.deepEqual([second.agents.alpha!.pane, second.agents.beta!.pane], [first.agents.alpha!.pane, first.agents.beta!.pane]);
    assert.equal(second.agents.alpha!.prompted, undefined);
    assert.equal((await screen('alpha')).split('write the parser').length - 1, 1, 'the prompt was typed once');
  });

  it('reports an agent that differs from the file, leaves it alone (exit 1), and replaces it with --recreate', async () => {
    const before = await call('pane.get', { target: 'beta' });
    writeFileSync(join(dir, 'corral.toml'), fakeAgent('alpha', ['prompt = "write the parser"']) + fakeAgent('beta', ['workspace = "team"'], 300));
    const differs = await up();
    assert.equal(differs.code, 1);
    assert.deepEqual(JSON.parse(differs.stderr).error.code, "fleet_differs");
    assert.match(JSON.parse(differs.stderr).error.message, /^beta runs otherwise than corral\.toml declares and was left alone: run corral up --recreate to replace it$/);
    assert.equal(differs.agents.alpha!.action, 'unchanged');
    assert.equal(differs.agents.beta!.action, 'differs');
    assert.deepEqual(differs.agents.beta!.differences, ['env: FAKE_WORK_MS has another value']);
    assert.equal((await call('pane.get', { target: 'beta' })).id, before.id, 'left alone');

    const text = await corral(['up']);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /^NAME\s+HOST\s+PANE\s+ACTION\s+NOTE\n/);
    assert.match(text.stdout, /beta\s+-\s+team:p\d+\s+differs\s+env: FAKE_WORK_MS has another value/);

    const replaced = await up('--recreate');
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.equal(replaced.agents.alpha!.action, 'unchanged');
    assert.equal(replaced.agents.beta!.action, 'replaced');
    assert.notEqual(replaced.agents.beta!.pane, before.id);
    assert.equal((await call('pane.get', { target: 'beta' })).env.FAKE_WORK_MS, '300');
  });

  it('knows an agent as declared after a daemon restart, and starts a stopped one again in its pane', async () => {
    close();
    await daemon.stop();
    daemon = await startDaemon({ dir: daemon.dir, socket: daemon.socket });
    await connect();
    const again = await up();
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual([again.agents.alpha!.action, again.agents.beta!.action], ['unchanged', 'unchanged']);

    await call('pane.send', { target: 'beta', text: 'exit', keys: ['Enter'] });
    await waitUntilExited('beta');
    const restarted = await up();
    assert.equal(restarted.code, 0, restarted.stderr);
    assert.equal(restarted.agents.beta!.action, 'restarted');
    assert.equal((await call('pane.get', { target: 'beta' })).state, 'running');
  });

  async function waitUntilExited(target: string): Promise<void> {
    await waitFor(async () => (await call('pane.get', { target })).state === 'exited', { what: `${target} to exit` });
  }

  it('gives up a --wait at --timeout with exit 124', async () => {
    const file = join(dir, 'sleeper.toml');
    writeFileSync(file, '[[agents]]\nname = "sleeper"\ncommand = ["sleep", "60"]\n');
    const result = await up(file, '--wait', 'idle', '--timeout', '300ms');
    assert.equal(result.code, 124, result.stderr);
    assert.equal(result.agents.sleeper!.error!.code, 'timeout');
    assert.equal((await corral(['down', file])).code, 0);
  });

  it('ends a --wait idle at once on a blocked agent, naming it (exit 6), rather than waiting out --timeout', async () => {
    // "perm" brings the fake agent to a permission form; its wait's --timeout is far past the CLI's hang guard.
    const file = join(dir, 'asker.toml');
    writeFileSync(file, fakeAgent('asker', ['prompt = "perm"']));
    const first = await up(file, '--wait', 'idle', '--timeout', '30m');
    assert.equal(first.code, 6, first.stderr);
    assert.equal(first.agents.asker!.prompted, true);
    assert.equal(first.agents.asker!.state, 'blocked');
    assert.equal(first.agents.asker!.error!.code, 'agent_blocked');
    assert.match(first.agents.asker!.error!.message, /asker is blocked on a question .*corral agent answer asker/);
    // Already blocked when the next run begins: the same at once.
    const again = await corral(['up', file, '--wait', 'idle', '--timeout', '30m']);
    assert.equal(again.code, 6, again.stderr);
    assert.match(again.stdout, /asker .* unchanged +blocked; asker is blocked on a question/);
    assert.match(again.stderr, /first, asker: asker is blocked on a question .*\[agent_blocked\]/);
    assert.equal((await corral(['down', file])).code, 0);
  });

  it('makes a git worktree for an agent from a named branch, beside the repository, and keeps it on the next run', async () => {
    const repo = join(daemon.dir, 'repo');
    mkdirSync(join(repo, 'src'), { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'src', 'a.txt'), 'a\n');
    git('add', '.');
    git('commit', '-qm', 'first');
    const file = join(repo, 'corral.toml');
    writeFileSync(file, fakeAgent('tree', ['cwd = "src"', 'worktree = "main"']));
    const first = await up(file);
    assert.equal(first.code, 0, first.stderr);
    const path = join(dirname(repo), `${basename(repo)}.worktrees`, 'tree');
    assert.deepEqual(first.agents.tree!.worktree, { path, made: true });
    assert.equal((await call('pane.get', { target: 'tree' })).cwd, join(path, 'src'));
    assert.ok(existsSync(join(path, 'src', 'a.txt')));
    assert.match(git('worktree', 'list'), new RegExp(`${path} +[0-9a-f]+ \\[corral/tree\\]`));
    const second = await up(file);
    assert.equal(second.agents.tree!.action, 'unchanged');
    assert.equal(second.agents.tree!.worktree, undefined, 'nothing to make');
    assert.equal((await corral(['down', file])).code, 0);
    assert.ok(existsSync(path), 'down leaves the worktree and its work');
  });

  it('down ends the agents the file declares and nothing else', async () => {
    await call('pane.spawn', { command: 'sleep', args: ['60'], name: 'bystander', cwd: dir });
    assert.deepEqual(await names(), ['alpha', 'beta', 'bystander']);
    const down = await corral(['--json', 'down']);
    assert.equal(down.code, 0, down.stderr);
    assert.deepEqual(JSON.parse(down.stdout).agents.map((o: Outcome) => o.action), ['ended', 'ended']);
    assert.deepEqual(await names(), ['bystander']);
    const again = await corral(['down']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /alpha\s+-\s+-\s+absent/);
  });

  it('refuses a bad file with exit 2, naming the file, the line and the key, and starts nothing', async () => {
    const before = (await call('pane.list')).panes.length;
    const cases: [string, RegExp][] = [
      [fakeAgent('a', ['colour = "red"']), /bad\.toml:5: agents\[0\]\.colour: unknown key "colour" \(known: name, command, cwd, env, workspace, host, prompt, worktree\)/],
      ['[[agents]]\nname = "a"\ncommand = "claude --resume"\n', /bad\.toml:3: agents\[0\]\.command: must be an array of 1 to 1025 strings/],
      ['[[agents]]\nname = "a"\n', /bad\.toml:1: agents\[0\]: needs a "command"/],
      ['[[agents]]\nname = "no spaces"\ncommand = ["x"]\n', /bad\.toml:2: agents\[0\]\.name: must be a name/],
      ['[[agents]]\nname = "a"\ncommand = ["x"]\nenv = { PORT = 8080 }\n', /bad\.toml:4: agents\[0\]\.env: "PORT" must be a string/],
      ['[[agents]]\nname = "a"\ncommand = ["x"]\nhost = "-oProxyCommand=x"\n', /bad\.toml:4: agents\[0\]\.host: must be a host/],
      ['[[agents]]\nname = "a"\ncommand = ["x"]\nworktree = "--orphan"\n', /bad\.toml:4: agents\[0\]\.worktree: must be the name of a branch/],
      [fakeAgent('a') + fakeAgent('a'), /bad\.toml:5: agent name "a" is declared twice \(first at line 1\)/],
      ['[hosts]\nname = "box"\n', /bad\.toml:1: unknown key "hosts" \(a fleet file holds \[\[agents\]\] tables only/],
      ['', /bad\.toml: declares no agents/],
      ['[[agents]\n', /bad\.toml:1: not valid TOML/],
    ];
    for (const [text, message] of cases) {
      writeFileSync(join(dir, 'bad.toml'), text);
      const result = await corral(['up', 'bad.toml']);
      assert.equal(result.code, 2, `${text}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.match(result.stderr, /\[fleet_file_invalid\]/);
    }
    const absent = await corral(['up'], daemon.dir);
    assert.equal(absent.code, 2);
    assert.match(absent.stderr, /corral\.toml: no such file; write one \(docs\/fleet\.md\) or name it: corral up FILE/);
    assert.equal((await call('pane.list')).panes.length, before);
  });

  it('reads the file from stdin with -', async () => {
    const file = join(dir, 'piped.toml');
    writeFileSync(file, '[[agents]]\nname = "piped"\ncommand = ["sleep", "60"]\n');
    const result = execFileSync('sh', ['-c', `"$0" "$1" --socket "$2" up - < "$3"`, process.execPath, join(import.meta.dirname, '../../bin/corral'), daemon.socket, file], { encoding: 'utf8', cwd: dir });
    assert.match(result, /piped\s+-\s+w1:p\d+\s+started/);
    assert.equal((await call('pane.get', { target: 'piped' })).cwd, dir);
    assert.equal((await corral(['down', file])).code, 0);
    assert.ok(readFileSync(file, 'utf8'));
  });
});
