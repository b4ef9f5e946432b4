import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CORRAL_BIN } from '../../harness/daemon.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { waitFor } from '../../harness/wait.ts';
import { AgentLab, FAKE_AGENT } from '../helpers/agent-lab.ts';

/** The real CLI with its stdout a pipe whose reader is gone before it prints: every write it makes fails with EPIPE. */
function runIntoClosedPipe(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CORRAL_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout: '', stderr }));
  });
}

describe('scripting through the CLI: durations with units, trailing keys, events cursor', () => {
  let lab: AgentLab;
  const corral = (...args: string[]) => runCli(['--socket', lab.daemon.socket, ...args], { timeoutMs: 60_000 });

  before(async () => {
    lab = await AgentLab.start();
    await lab.agent('one', 200);
  });

  after(async () => {
    await lab?.dispose();
  });

  it('reads timeouts with units (15m, 90s, 500ms) and plain numbers as ms', async () => {
    const units = await corral('agent', 'wait', 'one', '--until', 'working', '--timeout', '1s', '--stable', '15m');
    assert.equal(units.code, 124, units.stderr);
    assert.match(units.stderr, /working for 900000 ms within 1000 ms/);
    const plain = await corral('agent', 'wait', 'one', '--until', 'working', '--timeout', '500');
    assert.equal(plain.code, 124, plain.stderr);
    assert.match(plain.stderr, /within 500 ms/);
    const ms = await corral('agent', 'wait', 'one', '--until', 'working', '--timeout', '300ms', '--stable', '90s');
    assert.match(ms.stderr, /for 90000 ms within 300 ms/);
    const bad = await corral('agent', 'wait', 'one', '--timeout', '5x');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /expected a duration/);
  });

  it('sends tmux-style trailing words: key names are keys, other words are text, in order', async () => {
    const spawned = await corral('pane', 'spawn', '--name', 'sh', '--', 'bash', '--norc', '--noprofile');
    assert.equal(spawned.code, 0, spawned.stderr);
    const sent = await corral('--json', 'pane', 'send', 'sh', 'echo fir', 'st', 'Enter', 'echo $((6*7))', 'Enter');
    assert.equal(sent.code, 0, sent.stderr);
    assert.ok(JSON.parse(sent.stdout).bytes > 0);
    await waitFor(async () => /^first$/m.test((await corral('pane', 'read', 'sh')).stdout) && /^42$/m.test((await corral('pane', 'read', 'sh')).stdout), {
      timeoutMs: 30_000,
      what: 'both commands to run in order',
    });
    const both = await corral('pane', 'send', 'sh', 'ls', 'Enter', '--key', 'Tab');
    assert.equal(both.code, 2);
  });

  it('prints the events cursor, and events after it start there', async () => {
    const before = await corral('events', 'cursor');
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout, /^\d+\n$/);
    const cursor = Number(before.stdout);
    const json = JSON.parse((await corral('--json', 'events', 'cursor')).stdout);
    assert.equal(typeof json.epoch, 'string');
    assert.ok(json.cursor >= cursor && json.oldest >= 1);
    await corral('pane', 'spawn', '--name', 'later', '--', 'bash', '--norc', '--noprofile');
    const events = (await corral('--json', 'events', '--since', String(cursor))).stdout.trim().split('\n').map((line) => JSON.parse(line));
    assert.ok(events.length > 0 && events.every((e) => e.cursor > cursor));
    assert.ok(events.some((e) => e.kind === 'pane.created' && e.pane.name === 'later'));
  });

  it('ends quietly with exit 0 when the reader of its output goes away (`agent list | head -1`)', async () => {
    for (const args of [['agent', 'list'], ['events', '--since', '0'], ['--json', 'pane', 'list']]) {
      const closed = await runIntoClosedPipe(['--socket', lab.daemon.socket, ...args]);
      assert.deepEqual(closed, { code: 0, stdout: '', stderr: '' }, `corral ${args.join(' ')}`);
    }
  });

  it('agent explain says which named the agent: the CORRAL_AGENT hint, or the live process', async () => {
    const hinted = await corral('agent', 'explain', 'one');
    assert.equal(hinted.code, 0, hinted.stderr);
    assert.match(hinted.stdout, /process:process = .*agent=claude.*: the CORRAL_AGENT=claude hint in the process's environment decides identity, not its program/);
    // A script called claude is claude by its own name, with no hint.
    const program = join(lab.daemon.dir, 'claude');
    writeFileSync(program, '#!/bin/sh\nprintf "ready\\n"\nsleep 300\n', { mode: 0o755 });
    const spawned = await corral('pane', 'spawn', '--name', 'named', '--', program);
    assert.equal(spawned.code, 0, spawned.stderr);
    let got = '';
    await waitFor(async () => JSON.parse((got = (await corral('--json', 'agent', 'get', 'named')).stdout)).agent === 'claude', { timeoutMs: 30_000, what: 'the program to be identified' }).catch((error: Error) => {
      throw new Error(`${error.message}: ${got}`);
    });
    const named = await corral('agent', 'explain', 'named');
    assert.match(named.stdout, new RegExp(`: the live process decides identity \\(${program}\\)`), named.stdout);
    assert.doesNotMatch(named.stdout, /hint/);
    await corral('pane', 'kill', 'named');
  });

  it('a wait on a pane with no identified agent fails at once with no_agent, unless --allow-unknown', async () => {
    await corral('pane', 'spawn', '--name', 'plain', '--', 'bash', '--norc', '--noprofile');
    await waitFor(async () => (await corral('pane', 'read', 'plain')).stdout.trim() !== '', { timeoutMs: 30_000, what: 'the shell prompt' });
    const unknown = await corral('agent', 'wait', 'plain');
    assert.equal(unknown.code, 3, unknown.stderr);
    assert.match(unknown.stderr, /pane plain has no identified agent.*\[no_agent\]/);
    const allowed = await corral('agent', 'wait', 'plain', '--allow-unknown', '--timeout', '200ms');
    assert.equal(allowed.code, 124, allowed.stderr);
    const group = await corral('agent', 'wait', 'pla*');
    assert.equal(group.code, 3);
    assert.match(group.stderr, /"pla\*" has no pane with an identified agent.*\[no_agent\]/);
  });

  it('waits on groups: --all-agents, @WORKSPACE and name patterns, keyed by pane name; --read prints the screens', async () => {
    await lab.agent('two', 200);
    const all = await corral('--json', 'agent', 'wait', '--all-agents', '--all', '--until', 'idle');
    assert.equal(all.code, 0, all.stderr);
    const states = JSON.parse(all.stdout).states as Record<string, string>;
    assert.deepEqual(Object.keys(states).sort(), ['one', 'two'], 'the shells have no agent and are left out');
    const workspace = JSON.parse((await corral('--json', 'agent', 'wait', '@w1', '--all')).stdout);
    assert.deepEqual(Object.keys(workspace.states).sort(), ['one', 'two']);
    const pattern = JSON.parse((await corral('--json', 'agent', 'wait', 't?o', '--until', 'idle')).stdout);
    assert.deepEqual(pattern.matched, ['two']);
    const none = await corral('agent', 'wait', 'zz*');
    assert.equal(none.code, 3);
    assert.match(none.stderr, /no pane matches "zz\*".*\[pane_not_found\]/);

    const read = await corral('agent', 'wait', 'one', '--until', 'idle', '--read');
    assert.equal(read.code, 0, read.stderr);
    const screen = (await corral('pane', 'read', 'one')).stdout;
    const [states1, shown] = read.stdout.split('--- one screen ---\n');
    assert.match(states1!, /^one: (idle|done)\n$/);
    assert.equal(shown!.trimEnd(), screen.trimEnd());
    const json = JSON.parse((await corral('--json', 'agent', 'wait', 'one', 'two', '--all', '--until', 'idle', '--read')).stdout);
    assert.deepEqual(Object.keys(json.screens).sort(), ['one', 'two']);
    assert.equal(json.screens.one.trimEnd(), screen.trimEnd());
    const usage = await corral('agent', 'wait');
    assert.equal(usage.code, 2);
  });

  it('workspaces: pane spawn --workspace, @W and patterns as targets, the rollup in agent list, top and events', async () => {
    const cursor = (await corral('events', 'cursor')).stdout.trim();
    const spawned = await corral('--json', 'pane', 'spawn', '--workspace', 'build', '--name', 'b1', '--env', 'CORRAL_AGENT=claude', '--env', 'FAKE_WORK_MS=200', '--', process.execPath, FAKE_AGENT);
    assert.equal(spawned.code, 0, spawned.stderr);
    const pane = JSON.parse(spawned.stdout);
    assert.equal(pane.workspace, 'build');
    assert.match(pane.id, /^build:p\d+$/);
    await corral('agent', 'wait', '@build', '--until', 'idle', '--timeout', '2m');
    const list = JSON.parse((await corral('--json', 'agent', 'list')).stdout);
    assert.deepEqual(list.workspaces.find((w: { workspace: string }) => w.workspace === 'build').counts.idle + list.workspaces.find((w: { workspace: string }) => w.workspace === 'build').counts.done, 1);
    const top = await corral('top', '--once');
    assert.match(top.stdout, /\[.*build (idle|done).*\]/);
    const events = (await corral('--json', 'events', '--since', cursor, '--filter', 'kind:workspace.stateChanged')).stdout.trim().split('\n').map((line) => JSON.parse(line));
    assert.ok(events.some((e) => e.data.workspace === 'build' && e.data.from === null), JSON.stringify(events));
    // In text, the pane column starts at one place on every line, a workspace's own event's (`@build`) too.
    const lines = (await corral('events', '--since', cursor)).stdout.trim().split('\n');
    const rollup = lines.find((line) => line.includes(' workspace.stateChanged '));
    assert.match(rollup ?? '', /  workspace\.stateChanged  @build  new -> \w+ \(1 \w+\)$/, lines.join('\n'));
    const paneColumn = new Set(lines.map((line) => /^\s*\d+  \S+  \S+\s+/.exec(line)![0].length));
    assert.equal(paneColumn.size, 1, lines.join('\n'));

    const read = await corral('agent', 'read', '@build');
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, new RegExp(`^==> ${pane.id} <==\n`));
    const reads = JSON.parse((await corral('--json', 'pane', 'read', 'b?')).stdout);
    assert.deepEqual(reads.map((r: { id: string }) => r.id), [pane.id]);
    const sent = await corral('pane', 'send', '@nowhere', 'x');
    assert.equal(sent.code, 3);
    const killed = await corral('pane', 'kill', '@build');
    assert.equal(killed.code, 0, killed.stderr);
    assert.equal(killed.stdout, `==> ${pane.id} <==\n${pane.id}\n`);
    assert.equal((await corral('pane', 'get', pane.id)).code, 3);
  });
});
