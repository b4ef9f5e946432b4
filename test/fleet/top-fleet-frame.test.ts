import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LiveAgents, type HostStatus } from '../../src/client/index.ts';
import { agentInfo } from '../helpers/agent-info.ts';
import type { AgentInfo } from '../../src/protocol/methods/agent.ts';
import type { AgentState } from '../../src/protocol/states.ts';
import { renderFleetFrame } from '../../src/cli/top/fleet-render.ts';
import { FleetTopRows } from '../../src/cli/top/fleet-rows.ts';
import { attachHint } from '../../src/cli/top/fleet-source.ts';

const NOW = 10_000_000;

function agent(id: string, state: AgentState, name: string): AgentInfo {
  return agentInfo(id, state, { name, stateSince: NOW - 5_000, title: 'Fake Agent' });
}

function host(name: string, state: HostStatus['state'] = 'connected', reason: string | null = null): HostStatus {
  return { name, ssh: name === 'local' ? null : `me@${name}`, state, since: NOW - 65_000, reason, code: reason === null ? null : 'daemon_unreachable', daemon: null, cursor: null, missed: 0, lastSeen: state === 'connected' ? NOW : null };
}

const visibleWidth = (line: string) => [...line.replace(/\x1b\[[0-9;]*m/g, '')].length;

/** Each host's live agents, as the fleet keeps them (one LiveAgents per host). */
const lives = new Map<string, LiveAgents>();
function live(name: string): LiveAgents {
  if (!lives.has(name)) lives.set(name, new LiveAgents());
  return lives.get(name)!;
}

function rowsOf(...names: string[]): FleetTopRows {
  for (const name of names) lives.delete(name);
  return new FleetTopRows(names.map((name) => ({ status: host(name), live: live(name) })));
}

function twoHosts(): FleetTopRows {
  const rows = rowsOf('local', 'build', 'gpu');
  live('build').reset([agent('w1:p1', 'idle', 'api'), agent('w1:p2', 'blocked', 'migrate')]);
  live('gpu').reset([agent('w1:p1', 'working', 'train')]);
  return rows;
}

test('rows are grouped by host in the fleet order, each in attention order, named ID@HOST', () => {
  const rows = twoHosts();
  assert.deepEqual(rows.order(), ['w1:p2@build', 'w1:p1@build', 'w1:p1@gpu']);
  const lines = renderFleetFrame(rows.groups(), { cols: 80, height: 20, now: NOW, selected: null, color: false });
  assert.equal(lines[0], 'corral top: 3 agents on 3 hosts, 1 needs you (1 blocked, 1 working, 1 idle)');
  assert.match(lines[1]!, /^ STATE +AGE +AGENT +NAME +TITLE +Q$/);
  assert.deepEqual(lines.slice(2).map((line) => line.replace(/ {2,}/g, ' ')), [
    'local: connected; no agents',
    'build: connected; 1 blocked, 1 idle, 1 needs you',
    '*blocked 5s claude migrate Fake Agent',
    ' idle 5s claude api Fake Agent',
    'gpu: connected; 1 working',
    ' working 5s claude train Fake Agent',
  ]);
});

test('a host that is away keeps its last known states, marked stale (never idle), with since when and why', () => {
  const rows = twoHosts();
  rows.setStatus(host('gpu', 'offline', 'host gpu (me@gpu): ssh lost or could not make the connection (exit 255): Connection closed by 10.0.0.7 port 22'));
  const lines = renderFleetFrame(rows.groups(), { cols: 60, height: 20, now: NOW, selected: 'w1:p1@gpu', color: false });
  assert.match(lines[0]!, /^corral top: 3 agents on 3 hosts, 1 needs you, 1 host away \(/);
  const at = lines.findIndex((line) => line.startsWith('gpu:'));
  assert.equal(lines[at], 'gpu: offline 65s; 1 working, 1 stale');
  // The reason on lines of its own, so ssh's words at its end are not cut.
  const row = lines.findIndex((line) => line.includes('train'));
  assert.equal(lines.slice(at + 1, row).join(' ').replace(/ +/g, ' ').trim(), 'host gpu (me@gpu): ssh lost or could not make the connection (exit 255): Connection closed by 10.0.0.7 port 22');
  assert.match(lines[row]!, /^>working .* train +\(stale\) Fake/);
  for (const line of lines) assert.ok(visibleWidth(line) <= 60, `too wide: ${line}`);

  // Back: its list replaces what was kept, and nothing is stale any more.
  rows.setStatus(host('gpu'));
  live('gpu').reset([agent('w1:p1', 'done', 'train')]);
  const back = renderFleetFrame(rows.groups(), { cols: 60, height: 20, now: NOW, selected: null, color: true });
  assert.ok(!back.some((line) => line.includes('stale')));
  assert.ok(back.some((line) => line.includes('gpu: connected; 1 done, 1 needs you')));
});

test('the selection stays in view on a short terminal, and a long status wraps at spaces', () => {
  const rows = rowsOf('local', 'build');
  live('build').reset(Array.from({ length: 12 }, (_, i) => agent(`w1:p${i + 1}`, 'idle', `agent-${i + 1}`)));
  const status = 'w1:p12@build is on another host and attach holds a terminal: run `corral --host me@build attach w1:p12`';
  const lines = renderFleetFrame(rows.groups(), { cols: 50, height: 10, now: NOW, selected: 'w1:p12@build', color: false, status });
  assert.ok(lines.some((line) => line.startsWith('>idle') && line.includes('agent-12')), lines.join('\n'));
  const statusLines = lines.slice(lines.findIndex((line) => line.startsWith('w1:p12@build is')));
  assert.equal(statusLines.join(' '), status);
  assert.equal(lines.length, 10 - 1, 'the key line is the last of the screen');

  // A warning about a host stays on screen above the status, never written over it on stderr.
  const warned = renderFleetFrame(rows.groups(), { cols: 50, height: 10, now: NOW, selected: 'w1:p12@build', color: false, status: 'marked w1:p12@build seen', notice: 'host build speaks protocol 2.0' });
  assert.deepEqual(warned.slice(-2), ['host build speaks protocol 2.0', 'marked w1:p12@build seen']);
  assert.ok(warned.some((line) => line.includes('agent-12')));
});

test('a pane of another host is attached there: the hint names the host, whose [[hosts]] entry --host takes whole', () => {
  const spec = { name: 'gpu', ssh: 'me@gpu-vm', command: ['node', '/opt/corral/bin/corral'], sshOptions: ['-p', '2222'], socket: '/run/user/1000/corral/corral.sock' };
  assert.equal(attachHint(spec, 'w1:p1'), 'w1:p1@gpu is on another host and attach holds a terminal: run `corral --host gpu attach w1:p1`');
});
