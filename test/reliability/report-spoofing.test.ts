import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';

const SPOOF = fileURLToPath(new URL('../fixtures/agents/spoof/', import.meta.url));
const REPORT = join(SPOOF, 'report.mjs');

/** Where a reporter runs. */
type Place =
  | 'outside' // a shell outside every pane
  | 'plain-pane' // a child of pane B, a plain shell
  | 'other-agent' // a hook of pane C's own claude
  | 'hook' // a hook of pane A's claude
  | 'nested-codex' // under a codex that A's claude started
  | 'nested-claude' // under a claude that A's claude started through its bash tool
  | 'background'; // a background job of A's shell, beside the agent

/** What the reporter writes as pid: none, its own, or another process's. */
type Pid = 'none' | 'self' | 'agent-a';

interface Scenario {
  what: string;
  from: Place;
  method?: 'pane.reportAgent' | 'pane.releaseAgent' | 'pane.reportSession';
  target?: 'A' | 'B';
  pid: Pid;
  params?: Record<string, unknown>;
  expect: string; // 'accepted' or the refusal reason
}

const hook = { source: 'hook:claude', agent: 'claude' };

/** The 30 spoofing scenarios of the adversarial review, in the order they run (some build on earlier ones). */
const SCENARIOS: Scenario[] = [
  { what: 'an outside shell, no pid', from: 'outside', pid: 'none', params: { state: 'blocked' }, expect: 'not_in_pane' },
  { what: "an outside shell claiming A's agent pid", from: 'outside', pid: 'agent-a', params: { state: 'blocked' }, expect: 'pid_mismatch' },
  { what: 'an outside shell with its own pid', from: 'outside', pid: 'self', params: { state: 'blocked' }, expect: 'not_in_pane' },
  { what: 'a child of a plain pane, no pid', from: 'plain-pane', pid: 'none', params: { state: 'blocked' }, expect: 'not_in_pane' },
  { what: "a child of a plain pane claiming A's agent pid", from: 'plain-pane', pid: 'agent-a', params: { state: 'blocked' }, expect: 'pid_mismatch' },
  { what: 'a child of a plain pane with its own pid', from: 'plain-pane', pid: 'self', params: { state: 'blocked' }, expect: 'not_in_pane' },
  { what: "another pane's agent hook with its own pid", from: 'other-agent', pid: 'self', params: { state: 'blocked' }, expect: 'not_in_pane' },
  { what: "another pane's agent hook claiming A's agent pid", from: 'other-agent', pid: 'agent-a', params: { state: 'blocked' }, expect: 'pid_mismatch' },
  { what: "another pane's agent hook, no pid", from: 'other-agent', pid: 'none', params: { state: 'blocked' }, expect: 'not_in_pane' },
  { what: "A's own hook with its own pid", from: 'hook', pid: 'self', params: { state: 'working' }, expect: 'accepted' },
  { what: "A's own hook, no pid", from: 'hook', pid: 'none', params: { state: 'working' }, expect: 'accepted' },
  { what: "A's own hook claiming the agent's pid", from: 'hook', pid: 'agent-a', params: { state: 'working' }, expect: 'pid_mismatch' },
  { what: "A's own hook renaming the agent", from: 'hook', pid: 'self', params: { state: 'blocked', agent: 'codex' }, expect: 'identity_conflict' },
  { what: 'a nested codex with its own pid', from: 'nested-codex', pid: 'self', params: { state: 'blocked' }, expect: 'nested_agent' },
  { what: 'a nested codex leaving out its pid', from: 'nested-codex', pid: 'none', params: { state: 'blocked' }, expect: 'nested_agent' },
  { what: "a nested codex claiming A's agent pid", from: 'nested-codex', pid: 'agent-a', params: { state: 'blocked' }, expect: 'pid_mismatch' },
  { what: 'a nested codex naming itself', from: 'nested-codex', pid: 'none', params: { source: 'hook:codex', agent: 'codex', state: 'blocked' }, expect: 'nested_agent' },
  { what: 'a nested claude with its own pid', from: 'nested-claude', pid: 'self', params: { state: 'blocked' }, expect: 'nested_agent' },
  { what: 'a nested claude leaving out its pid', from: 'nested-claude', pid: 'none', params: { state: 'blocked' }, expect: 'nested_agent' },
  { what: "a nested claude claiming A's agent pid", from: 'nested-claude', pid: 'agent-a', params: { state: 'blocked' }, expect: 'pid_mismatch' },
  { what: 'a background job beside the agent, own pid', from: 'background', pid: 'self', params: { state: 'blocked' }, expect: 'not_under_agent' },
  { what: 'a background job beside the agent, no pid', from: 'background', pid: 'none', params: { state: 'blocked' }, expect: 'not_under_agent' },
  { what: "a background job claiming the agent's pid", from: 'background', pid: 'agent-a', params: { state: 'blocked' }, expect: 'pid_mismatch' },
  { what: 'an outside shell labelling the plain pane B', from: 'outside', target: 'B', pid: 'none', params: { state: 'working' }, expect: 'not_in_pane' },
  { what: "a child of pane B labelling its own pane", from: 'plain-pane', target: 'B', pid: 'self', params: { source: 'custom:tool', agent: 'tool', state: 'working' }, expect: 'accepted' },
  { what: "A's hook: seq 5 then 6 accepted, a replayed 5 refused", from: 'hook', pid: 'self', params: { state: 'working', session: 's1', seq: 5 }, expect: 'stale_seq' },
  { what: "A's hook: a new session id does not reset the order", from: 'hook', pid: 'self', params: { state: 'idle', session: 's2', seq: 1 }, expect: 'stale_seq' },
  { what: "A's hook: without seq, a replayed older ts is refused", from: 'hook', pid: 'self', params: { source: 'hook:ts', state: 'working', ts: 'older' }, expect: 'out_of_order' },
  { what: 'an outside shell releasing the agent, no pid', from: 'outside', method: 'pane.releaseAgent', pid: 'none', params: {}, expect: 'not_in_pane' },
  { what: 'an outside shell naming a session, no pid', from: 'outside', method: 'pane.reportSession', pid: 'none', params: { session: 'evil' }, expect: 'not_in_pane' },
];

/** The pid of the child of `parent` whose command line holds `program`. */
function childRunning(parent: number, program: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(program)) return Number(entry);
    } catch {
      // gone
    }
  }
  throw new Error(`no child of ${parent} runs ${program}`);
}

describe('30 report spoofing scenarios against a real daemon', () => {
  const session = useDaemon();

  it('refuses every report a pane did not send from under its own agent, and accepts the agent\'s hooks', async () => {
    const dir = session.daemon.dir;
    const fifo = (name: string) => join(dir, `${name}.fifo`);
    const spawnPane = (name: string, script: string) =>
      session.call('pane.spawn', { command: '/bin/bash', args: ['-c', script], cwd: dir, name });
    // A: a shell running a background job beside claude; claude runs each line written to A.fifo.
    await spawnPane('A', `${SPOOF}runner ${fifo('A-bg')} & ${SPOOF}claude ${fifo('A')}; wait`);
    await spawnPane('B', `${SPOOF}runner ${fifo('B')}`);
    await spawnPane('C', `${SPOOF}claude ${fifo('C')}`);
    await session.agentUntil('A', (info) => info.agent === 'claude', 'claude identified in A');
    await session.agentUntil('C', (info) => info.agent === 'claude', 'claude identified in C');
    for (const name of ['A', 'A-bg', 'B', 'C']) await waitFor(() => existsSync(fifo(name)), { what: `${name}.fifo` });
    const paneA = await session.call('pane.get', { target: 'A' });
    const agentPid = childRunning(paneA.pid, `${SPOOF}claude`);
    // Children that stand in for the nested agents inside A.
    writeFileSync(fifo('A'), `exec ${SPOOF}codex ${fifo('A-codex')}\n`);
    writeFileSync(fifo('A'), `${SPOOF}claude ${fifo('A-claude')}; true\n`); // under the tool's shell
    for (const name of ['A-codex', 'A-claude']) await waitFor(() => existsSync(fifo(name)), { what: `${name}.fifo` });

    const via: Record<Exclude<Place, 'outside'>, string> = {
      'plain-pane': 'B',
      'other-agent': 'C',
      hook: 'A',
      'nested-codex': 'A-codex',
      'nested-claude': 'A-claude',
      background: 'A-bg',
    };
    let count = 0;
    const send = async (scenario: Scenario, extra: Record<string, unknown> = {}): Promise<string> => {
      count += 1;
      const out = join(dir, `answer-${count}.json`);
      const method = scenario.method ?? 'pane.reportAgent';
      const base = method === 'pane.reportAgent' ? hook : { source: hook.source };
      const params: Record<string, unknown> = { target: scenario.target ?? 'A', ...base, ...scenario.params, ...extra };
      if (scenario.pid === 'self') params.pid = 'SELF';
      if (scenario.pid === 'agent-a') params.pid = agentPid;
      const encoded = Buffer.from(JSON.stringify(params)).toString('base64');
      if (scenario.from === 'outside') {
        spawn(process.execPath, [REPORT, out, method, encoded], { env: { ...process.env, CORRAL_SOCKET: session.daemon.socket }, stdio: 'ignore' });
      } else {
        writeFileSync(fifo(via[scenario.from]), `node ${REPORT} ${out} ${method} ${encoded}\n`);
      }
      const answer = await waitFor(() => (existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null), { what: scenario.what, timeoutMs: 20000 });
      return answer.accepted === true ? 'accepted' : String(answer.reason ?? answer.error);
    };

    const outcomes: Array<{ what: string; expected: string; got: string }> = [];
    for (const scenario of SCENARIOS) {
      // The replay scenarios first lay down the newer reports they replay against.
      if (scenario.params?.seq === 5) {
        await send({ ...scenario, params: { ...scenario.params, seq: 5 } });
        await send({ ...scenario, params: { ...scenario.params, state: 'blocked', seq: 6 } });
      }
      if (scenario.params?.session === 's2') await send({ ...scenario, params: { state: 'working', session: 's1', seq: 10 } });
      if (scenario.params?.ts === 'older') {
        const now = Math.floor(Date.now() / 1000);
        await send({ ...scenario, params: { ...scenario.params, ts: now } });
        outcomes.push({ what: scenario.what, expected: scenario.expect, got: await send({ ...scenario, params: { ...scenario.params, ts: now - 5 } }) });
        continue;
      }
      outcomes.push({ what: scenario.what, expected: scenario.expect, got: await send(scenario) });
    }
    if (process.env.CORRAL_SCENARIOS_OUT) writeFileSync(process.env.CORRAL_SCENARIOS_OUT, JSON.stringify(outcomes, null, 1));
    assert.deepEqual(
      outcomes.map((o) => `${o.what}: ${o.got}`),
      outcomes.map((o) => `${o.what}: ${o.expected}`),
    );
    assert.equal(outcomes.length, 30);
  });
});
