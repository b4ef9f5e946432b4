import assert from 'node:assert/strict';
import { test } from 'node:test';
import { textCells } from '../../src/base/cells.ts';
import { agentInfo } from '../helpers/agent-info.ts';
import type { AgentInfo } from '../../src/protocol/methods/agent.ts';
import type { AgentState } from '../../src/protocol/states.ts';
import { parseDetachKey, splitAtDetachKey } from '../../src/cli/attach/detach-key.ts';
import { parseTopKeys } from '../../src/cli/top/keys.ts';
import { columnWidths, renderFrame } from '../../src/cli/top/render.ts';
import { TopRows } from '../../src/cli/top/rows.ts';
import type { AnyCorralEvent } from '../../src/protocol/methods/events.ts';

const NOW = 10_000_000;

function agent(id: string, state: AgentState, agoMs: number, extra: Partial<AgentInfo> = {}): AgentInfo {
  return agentInfo(id, state, { stateSince: NOW - agoMs, ...extra });
}

const LONG_TITLE = 'Refactoring the login form to use the new validation helpers';

function fleet(): TopRows {
  const rows = new TopRows();
  rows.live.reset([
    agent('w1:p1', 'working', 5_000, { name: 'frontend-refactor-with-a-long-name', title: LONG_TITLE }),
    agent('w1:p2', 'blocked', 60_000, { title: 'Permission needed' }),
    agent('w1:p3', 'done', 1_000, { name: 'api', queued: 2 }),
    agent('w1:p4', 'idle', 300_000, { name: 'docs' }),
    agent('w1:p5', 'unknown', 10, { name: 'x' }),
    agent('w1:p6', 'blocked', 120_000, { name: 'older-blocked' }),
  ]);
  return rows;
}

/** The cells a line takes on a terminal: escapes take none, wide characters two. */
const visibleWidth = (line: string) => textCells(line.replace(/\x1b\[[0-9;]*m/g, ''));

test('rows sort by attention (blocked, done, working, idle, unknown), then longest in state', () => {
  assert.deepEqual(
    fleet().sorted().map((row) => `${row.state}:${row.id}`),
    ['blocked:w1:p6', 'blocked:w1:p2', 'done:w1:p3', 'working:w1:p1', 'idle:w1:p4', 'unknown:w1:p5'],
  );
});

test('a pane whose agent is released or removed leaves the rows', () => {
  const rows = fleet();
  const event = (kind: string, id: string, data: object) => ({ cursor: 1, ts: NOW, kind, pane: { id, name: null }, data }) as AnyCorralEvent;
  rows.live.apply(event('agent.released', 'w1:p4', { agent: 'claude', state: 'idle', seq: 1 }));
  rows.live.apply(event('pane.removed', 'w1:p5', { exitCode: 0, signal: null }));
  assert.deepEqual(rows.sorted().map((row) => row.id).includes('w1:p4'), false);
  assert.equal(rows.size, 4);
});

test('at 80 columns every line fits, the title is cut before the name', () => {
  const lines = renderFrame(fleet().sorted(), { cols: 80, height: 30, now: NOW, selected: -1, color: false });
  for (const line of lines) assert.ok(visibleWidth(line) <= 80, `too wide: ${line}`);
  assert.match(lines[0]!, /^corral top: 6 agents \(2 blocked, 1 done, 1 working, 1 idle, 1 unknown\)/);
  assert.match(lines[1]!, /^ STATE +AGE +AGENT +NAME +TITLE +Q$/);
  const body = lines.slice(2);
  const working = body.find((line) => line.includes('working'))!;
  assert.match(working, /frontend-refactor-with-… +Refactoring the login…$/);
  assert.match(working, /Refactoring the login…/);
  assert.match(body.find((line) => line.includes('api'))!, /done +1s +claude +api +2$/);
  assert.match(body.find((line) => line.includes('w1:p2'))!, /blocked +60s +claude +w1:p2 +Permission needed$/);
});

test('at 120 columns the whole title shows', () => {
  const lines = renderFrame(fleet().sorted(), { cols: 120, height: 30, now: NOW, selected: -1, color: false });
  for (const line of lines) assert.ok(visibleWidth(line) <= 120, `too wide: ${line}`);
  assert.ok(lines.some((line) => line.includes(LONG_TITLE)));
});

test('on a narrow terminal the title goes first, then the name shrinks to its minimum', () => {
  const rows = fleet().sorted();
  const at80 = columnWidths(80, rows);
  const at50 = columnWidths(50, rows);
  assert.ok(at80.title >= 10 && at80.name === 24);
  assert.deepEqual(at50, { name: 8, title: 8 });
  const lines = renderFrame(rows, { cols: 50, height: 30, now: NOW, selected: -1, color: false });
  for (const line of lines) assert.ok(visibleWidth(line) <= 50, `too wide: ${line}`);
});

test('colour: blocked red, working yellow, done bold green, idle dim, unknown grey; the selection is inverse', () => {
  const lines = renderFrame(fleet().sorted(), { cols: 100, height: 30, now: NOW, selected: 1, color: true });
  const row = (state: string) => lines.slice(2).find((line) => line.includes(state) && !line.includes('\x1b[7m'))!;
  assert.match(row('blocked'), /\x1b\[31mblocked/);
  assert.match(row('working'), /\x1b\[33mworking/);
  assert.match(row('done'), /\x1b\[1;32mdone/);
  assert.match(row('idle'), /\x1b\[2midle/);
  assert.match(row('unknown'), /\x1b\[90munknown/);
  assert.match(lines[3]!, /^\x1b\[7m blocked +60s/);
  for (const line of lines) assert.ok(visibleWidth(line) <= 100);
});

test('wide characters take two cells: a row of names and titles in CJK or emoji fits the terminal, and the selection fills it', () => {
  const rows = new TopRows();
  rows.live.reset([
    agent('w1:p1', 'working', 5_000, { name: '前端重构', title: 'ログインフォームを新しい検証ヘルパーに移行しています 🚀' }),
    agent('w1:p2', 'idle', 60_000, { name: 'docs', title: 'README' }),
  ]);
  for (const cols of [60, 80, 120]) {
    const lines = renderFrame(rows.sorted(), { cols, height: 30, now: NOW, selected: 0, color: true });
    for (const line of lines) assert.ok(visibleWidth(line) <= cols, `wider than ${cols}: ${line}`);
    const selected = lines.find((line) => line.includes('\x1b[7m'))!;
    assert.equal(visibleWidth(selected), cols, 'the inverse bar spans the terminal');
    // The name column is as wide as the name on the screen: the idle row's title starts where the working row's does.
    const plain = renderFrame(rows.sorted(), { cols, height: 30, now: NOW, selected: -1, color: false });
    const titleAt = (line: string) => textCells(line.slice(0, line.search(/ログ|README/)));
    assert.equal(titleAt(plain.find((line) => line.includes('前端'))!), titleAt(plain.find((line) => line.includes('README'))!));
  }
});

test('rows past the screen are cut, keeping the selection in view', () => {
  const lines = renderFrame(fleet().sorted(), { cols: 80, height: 6, now: NOW, selected: 5, color: false });
  assert.equal(lines.length, 5);
  assert.match(lines.at(-1)!, /^>unknown/);
});

test('keys: arrows and j/k move, Enter and a attach, f focuses, q and C-c quit', () => {
  assert.deepEqual(parseTopKeys('\x1b[A\x1b[BjkOA'), ['up', 'down', 'down', 'up']);
  assert.deepEqual(parseTopKeys('\x1bOB\r a f q\x03'), ['down', 'attach', 'attach', 'focus', 'quit', 'quit']);
  assert.deepEqual(parseTopKeys('\x1b[5~x'), []);
});

test('the detach key is a control key; C-\\ by default', () => {
  assert.equal(parseDetachKey('C-\\'), '\x1c');
  assert.equal(parseDetachKey('C-]'), '\x1d');
  assert.equal(parseDetachKey('^A'), '\x01');
  assert.equal(parseDetachKey('ctrl-q'), '\x11');
  assert.throws(() => parseDetachKey('x'), /not a control key/);
  assert.throws(() => parseDetachKey('C-['), /Escape, Tab, Enter or NUL/);
  assert.deepEqual(splitAtDetachKey('ls\x1cmore', '\x1c'), { forward: 'ls', detach: true });
  assert.deepEqual(splitAtDetachKey('ls', '\x1c'), { forward: 'ls', detach: false });
});

test('display metadata shows in top: the reported title with its state label, the display agent and tokens', () => {
  const metadata = { title: 'Fixing the parser', stateLabel: 'thinking', displayAgent: 'claude-4', tokens: 12_345, sources: {} };
  const lines = renderFrame([agent('w1:p1', 'working', 5_000, { name: 'api', title: 'osc title', metadata })], { cols: 100, height: 10, now: NOW, selected: -1, color: false });
  assert.match(lines[1]!, /^ STATE +AGE +AGENT +NAME +TITLE +TOKENS +Q$/);
  assert.match(lines[2]!, /working +5s +claude-4 +api +\[thinking\] Fixing the parser +12k$/);
  assert.doesNotMatch(lines[2]!, /osc title/);
});

test('a workspace column once agents are not all in w1, and whole names on a wide terminal', () => {
  const long = 'integration-tests-for-the-payment-service';
  const rows = [agent('team:p1', 'idle', 1_000, { name: long, workspace: 'team' }), agent('w1:p2', 'blocked', 2_000, { name: 'docs', workspace: 'w1' })];
  const wide = renderFrame(rows, { cols: 160, height: 10, now: NOW, selected: -1, color: false });
  assert.match(wide[1]!, /^ STATE +AGE +AGENT +WS +NAME +TITLE +Q$/);
  assert.ok(wide.some((line) => /idle +1s +claude +team +integration-tests-for-the-payment-service/.test(line)), wide.join('\n'));
  assert.ok(wide.some((line) => /blocked +2s +claude +w1 +docs/.test(line)));
  for (const line of renderFrame(rows, { cols: 80, height: 10, now: NOW, selected: -1, color: false })) assert.ok(visibleWidth(line) <= 80, `too wide: ${line}`);
  const alone = renderFrame([agent('w1:p2', 'idle', 1_000)], { cols: 100, height: 10, now: NOW, selected: -1, color: false });
  assert.doesNotMatch(alone[1]!, /WS/);
});

test('a blocked row shows the question it asks where the title goes', () => {
  const prompt = {
    id: 'p1-0a1b2c3d',
    kind: 'permission' as const,
    text: 'Bash command\nrm -rf build/\nDo you want to proceed?',
    choices: [{ id: 'yes', label: 'Yes', keys: ['1'], default: true, role: 'allow-once' as const }],
    freeText: false,
    note: null,
    source: 'screen:tool_permission',
    complete: true,
    incomplete: null,
  };
  const rows = new TopRows();
  rows.live.reset([agent('w1:p1', 'blocked', 2_000, { name: 'asker', title: '✳ Claude Code', prompt })]);
  const lines = renderFrame(rows.sorted(), { cols: 120, height: 10, now: NOW, selected: -1, color: false });
  const row = lines.find((line) => line.includes('asker'))!;
  assert.match(row, /permission: Bash command · rm -rf build\/ · Do you want to proceed\?/);
  assert.doesNotMatch(row, /Claude Code/);
});

test('blocked agents and done ones not yet seen need you', () => {
  assert.deepEqual([...fleet().needing()].sort(), ['w1:p2', 'w1:p3', 'w1:p6']);
});

test('agents that need you are marked * and counted', () => {
  const rows = fleet().sorted();
  const needing = new Set(['w1:p2', 'w1:p3']);
  const lines = renderFrame(rows, { cols: 100, height: 30, now: NOW, selected: 0, color: false, needing });
  assert.match(lines[0]!, /^corral top: 6 agents \(2 blocked, 1 done, 1 working, 1 idle, 1 unknown\), 2 need you$/);
  assert.match(lines.find((line) => line.includes('w1:p2'))!, /^\*blocked +60s/);
  assert.match(lines.find((line) => line.includes('api'))!, /^\*done +1s/);
  assert.match(lines.find((line) => line.includes('older-blocked'))!, /^>blocked/, 'the selection marker wins without colour');
  assert.match(lines.find((line) => line.includes('docs'))!, /^ idle/);
  const coloured = renderFrame(rows, { cols: 100, height: 30, now: NOW, selected: -1, color: true, needing: new Set(['w1:p2']) });
  assert.match(coloured.find((line) => line.includes('w1:p2'))!, /^\x1b\[1;31m\*\x1b\[0m\x1b\[31mblocked/);
  assert.match(coloured[0]!, /, 1 needs you$/);
});

test('the top line says when an approval policy is on, in dry-run or paused', () => {
  const rows = fleet().sorted();
  for (const policy of ['on', 'dry-run', 'paused']) {
    const lines = renderFrame(rows, { cols: 120, height: 30, now: NOW, selected: 0, color: false, policy });
    assert.match(lines[0]!, new RegExp(`^corral top: 6 agents .*, policy ${policy}$`));
  }
  assert.doesNotMatch(renderFrame(rows, { cols: 120, height: 30, now: NOW, selected: 0, color: false, policy: null })[0]!, /policy/);
});

test('a SPENT column once an agent has usage, marking the share of a budget it stands at', () => {
  const tokens = { input: 2000, output: 1000, cacheRead: 100, cacheWrite: 0 };
  const usage = { tokens, cost: 0.5, currency: 'USD', model: 'm', since: 0, source: 'transcript:claude', prices: 'v', models: [], skipped: 0, updatedAt: 0 };
  const crossing = { budget: 'daily', scope: 'agent' as const, period: 'day' as const, unit: 'tokens' as const, limit: 3000, spent: 3100, percent: '100' as const, periodStart: 0 };
  const rows = [
    agent('w1:p1', 'idle', 1_000, { name: 'spent', usage: { ...usage, budget: crossing } }),
    agent('w1:p2', 'idle', 2_000, { name: 'plain', usage }),
    agent('w1:p3', 'idle', 3_000, { name: 'bare', usage: 'unknown' }),
  ];
  const lines = renderFrame(rows, { cols: 100, height: 10, now: NOW, selected: -1, color: false });
  assert.match(lines[1]!, /SPENT/);
  assert.ok(lines.some((line) => /spent .*3\.1k \$0\.50 !100%/.test(line)), lines.join('\n'));
  assert.ok(lines.some((line) => /plain .*3\.1k \$0\.50(?! !)/.test(line)), lines.join('\n'));
  assert.ok(lines.some((line) => /bare .* \?\s*$/.test(line)), lines.join('\n'));
  for (const line of renderFrame(rows, { cols: 80, height: 10, now: NOW, selected: -1, color: false })) assert.ok(visibleWidth(line) <= 80, `too wide: ${line}`);
});
