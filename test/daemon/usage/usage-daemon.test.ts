// Usage and budgets through a real daemon (docs/usage.md): a fake Claude Code writes its transcript as
// Claude Code does and names it through its hook; the daemon reads it as it grows, publishes it in
// AgentInfo, events and usage.report, and its budgets cross at 80% and 100% once each, across restarts too.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeTempDir, startDaemon, testEnv, type DaemonProcess } from '../../../harness/daemon.ts';
import { runCli } from '../../helpers/cli.ts';
import { connectCalling as connect } from '../../../harness/raw-client.ts';
import { waitFor } from '../../../harness/wait.ts';
import { killDaemon } from '../../helpers/restart.ts';
import { FAKE_CLAUDE } from '../../helpers/session.ts';

/** What fake-claude.mjs writes per turn (FAKE_TRANSCRIPT): one message, in two lines that repeat its usage. */
const TURN = { input: 1000, output: 200, cacheRead: 300, cacheWrite: 50 };
const TURN_TOKENS = 1550;
const times = (n: number) => ({ input: TURN.input * n, output: TURN.output * n, cacheRead: TURN.cacheRead * n, cacheWrite: TURN.cacheWrite * n });

function writeConfig(dir: string, text: string): void {
  mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
  writeFileSync(join(dir, 'config', 'corral', 'config.toml'), text);
}

/** The usage the transcript itself adds up to, read the way a person would: every assistant message once. */
function transcriptSum(file: string): typeof TURN {
  const seen = new Map<string, any>();
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line);
    if (entry.type === 'assistant') seen.set(entry.message.id, entry.message.usage);
  }
  const sum = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const usage of seen.values()) {
    sum.input += usage.input_tokens;
    sum.output += usage.output_tokens;
    sum.cacheRead += usage.cache_read_input_tokens;
    sum.cacheWrite += usage.cache_creation_input_tokens;
  }
  return sum;
}

/** The call's JSON-RPC error; fails the test if the call succeeds. */
async function errorOf(client: Awaited<ReturnType<typeof connect>>, method: string, params: unknown): Promise<any> {
  try {
    await client.call(method, params);
  } catch (error) {
    return (error as { rpc: unknown }).rpc;
  }
  assert.fail(`${method} should fail`);
}

async function spawnAgent(client: Awaited<ReturnType<typeof connect>>, dir: string, name: string, transcript: string | null): Promise<string> {
  const env: Record<string, string> = { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '200', FAKE_HOOKS: '1', ...(transcript ? { FAKE_TRANSCRIPT: transcript } : {}) };
  const pane = await client.call('pane.spawn', { command: process.execPath, args: [FAKE_CLAUDE], name, cwd: dir, env });
  await waitFor(async () => (await client.call('agent.get', { target: pane.id })).rawState === 'idle', { what: `${name} idle`, timeoutMs: 60_000 });
  return pane.id;
}

/** One turn: prompted, worked, and back at idle with its transcript lines written. */
async function turn(client: Awaited<ReturnType<typeof connect>>, pane: string, tokens: number): Promise<void> {
  await client.call('agent.prompt', { target: pane, text: 'go' });
  await waitFor(async () => (await client.call('agent.get', { target: pane })).usage?.tokens?.input === tokens, { what: `usage of ${tokens} input tokens`, timeoutMs: 20_000 });
}

describe('usage through the daemon', () => {
  it('reads a turn from the transcript its hook names: agent.get, agent.usageChanged and usage.report match the transcript; no record is "unknown"', async () => {
    const dir = makeTempDir();
    const daemon = await startDaemon({ dir });
    const client = await connect(daemon);
    try {
      const transcript = join(dir, 'transcript.jsonl');
      const pane = await spawnAgent(client, dir, 'reader', transcript);
      const bare = await spawnAgent(client, dir, 'bare', null);
      assert.equal((await client.call('agent.get', { target: pane })).usage, 'unknown', 'no record named yet');
      const since = (await client.call('events.cursor', {})).cursor;
      await client.call('agent.prompt', { target: pane, text: 'first' });
      await client.call('agent.prompt', { target: bare, text: 'first' });
      const info = await waitFor(async () => {
        const got = await client.call('agent.get', { target: pane });
        return got.usage !== 'unknown' && got.usage.tokens.input > 0 ? got : undefined;
      }, { what: 'the usage of the first turn', timeoutMs: 20_000 });
      assert.deepEqual(info.usage.tokens, transcriptSum(transcript));
      assert.deepEqual(info.usage.tokens, TURN);
      assert.equal(info.usage.model, 'claude-sonnet-4-5-20250929');
      assert.equal(info.usage.source, 'transcript:claude');
      assert.equal(info.usage.currency, 'USD');
      assert.match(info.usage.prices, /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(Math.abs(info.usage.cost - (1000 * 3 + 200 * 15 + 300 * 0.3 + 50 * 3.75) / 1e6) < 1e-12, `cost ${info.usage.cost}`);
      await waitFor(async () => (await client.call('agent.get', { target: bare })).rawState === 'idle', { what: 'the bare agent back at idle' });
      assert.equal((await client.call('agent.get', { target: bare })).usage, 'unknown', 'an agent without a record is unknown, never zero');

      await turn(client, pane, 2000);
      const events = (await client.call('events.read', { since, filter: 'kind:agent.usageChanged' })).events;
      assert.ok(events.length >= 1 && events.every((e: any) => e.pane.id === pane), JSON.stringify(events));
      await waitFor(async () => (await client.call('events.read', { since, filter: 'kind:agent.usageChanged' })).events.at(-1)?.data.usage.tokens.input === 2000, { what: 'the coalesced event with the newest figures', timeoutMs: 20_000 });

      const report = await client.call('usage.report', { by: 'agent' });
      assert.deepEqual(report.rows.map((row: any) => [row.label, row.tokens]), [['reader', times(2)]]);
      assert.equal(report.unknown, 1, 'the bare agent, in no row');
      const byModel = await client.call('usage.report', { by: 'model' });
      assert.deepEqual(byModel.rows.map((row: any) => row.key), ['claude-sonnet-4-5-20250929']);

      const corral = (...args: string[]) => runCli(['--socket', daemon.socket, ...args], { env: { ...process.env, ...testEnv(dir) } });
      const json = JSON.parse((await corral('usage', '--since', '24h', '--by', 'workspace', '--json')).stdout);
      assert.deepEqual(json.rows.map((row: any) => row.tokens), [times(2)]);
      assert.equal(json.unknown, 1);
      const table = await corral('usage');
      assert.equal(table.code, 0, table.stderr);
      assert.match(table.stdout, /AGENT\s+INPUT\s+OUTPUT\s+CACHE READ\s+CACHE WRITE\s+COST/);
      assert.match(table.stdout, /reader\s+2\.0k\s+400\s+600\s+100\s+\$0\.01/);
      assert.match(table.stdout, /1 running agent with unknown usage/);
      const list = await corral('agent', 'list');
      assert.match(list.stdout, /USAGE/);
      assert.match(list.stdout, /reader .*3\.1k \$0\.01/);
      assert.match(list.stdout, /bare .* \? /);
    } finally {
      client.client.close();
      await daemon.dispose();
    }
  });

  it('crosses a budget at 80% and at 100% once each, holds the queue and refuses prompts once spent, also after a restart', async () => {
    const dir = makeTempDir();
    const paged = join(dir, 'paged.log');
    const script = `require('node:fs').appendFileSync(${JSON.stringify(paged)}, process.argv[1] + ' ' + process.argv[2] + '\\n')`;
    // 3500 tokens: one turn is 44%, two 89% (80% crossed), three 133% (100% crossed).
    writeConfig(dir, `[notify]\ncommand = [${JSON.stringify(process.execPath)}, "-e", ${JSON.stringify(script)}, "{id}", "{state}"]\ncooldown_ms = 0\n\n[[budgets]]\nname = "small"\nscope = "agent"\nperiod = "day"\ntokens = ${TURN_TOKENS * 2 + 400}\n`);
    const daemons: DaemonProcess[] = [await startDaemon({ dir })];
    let client = await connect(daemons[0]!);
    try {
      const transcript = join(dir, 'transcript.jsonl');
      const pane = await spawnAgent(client, dir, 'spender', transcript);
      const crossings = async () => (await client.call('events.read', { since: 0, filter: 'kind:budget.crossed' })).events.map((e: any) => e.data.crossing.percent);
      await turn(client, pane, 1000);
      assert.deepEqual(await crossings(), []);
      await turn(client, pane, 2000);
      await waitFor(async () => (await crossings()).length === 1, { what: 'the 80% crossing' });
      const items = (await client.call('inbox.list', {})).items.filter((item: any) => item.state === 'budget');
      assert.deepEqual(items.map((item: any) => [item.pane.id, item.budget.percent]), [[pane, '80']], 'an inbox item at 80%');
      assert.equal((await client.call('agent.get', { target: pane })).usage.budget?.percent, '80', 'the agent stands at 80% of its budget');
      await waitFor(async () => (await client.call('events.read', { since: 0, filter: 'kind:agent.usageChanged' })).events.some((e: any) => e.data.usage.budget?.percent === '80'), { what: 'a usage event carrying the 80% standing', timeoutMs: 10_000 });
      const listed = await runCli(['--socket', daemons[0]!.socket, 'agent', 'list'], { env: { ...process.env, ...testEnv(dir) } });
      assert.match(listed.stdout, /spender .* !80% /, 'agent list marks the agent at 80% of a budget');
      await turn(client, pane, 3000);
      await waitFor(async () => (await crossings()).length === 2, { what: 'the 100% crossing' });
      assert.deepEqual(await crossings(), ['80', '100']);
      assert.equal((await client.call('agent.get', { target: pane })).usage.budget?.percent, '100', 'the agent stands at 100% of its budget');
      await waitFor(() => existsSync(paged) && readFileSync(paged, 'utf8').includes(`${pane} budget`), { what: 'the page at 100%' });

      const refused = await errorOf(client, 'agent.prompt', { target: pane, text: 'more' });
      assert.equal(refused.data.code, 'budget_exceeded', JSON.stringify(refused));
      assert.equal(refused.data.budget.budget, 'small');
      assert.equal((await client.call('agent.get', { target: pane })).queued, 0, 'nothing queued');
      await client.call('agent.prompt', { target: pane, text: 'forced', force: true });
      await waitFor(async () => (await client.call('agent.get', { target: pane })).usage.tokens.input === 4000, { what: 'the forced turn read' });
      assert.deepEqual(await crossings(), ['80', '100'], 'no crossing told twice');

      client.client.close();
      await killDaemon(daemons[0]!);
      daemons.push(await startDaemon({ dir }));
      client = await connect(daemons[1]!);
      await waitFor(async () => (await client.call('agent.get', { target: pane })).usage?.tokens?.input === 4000, { what: 'the usage taken back after the restart', timeoutMs: 30_000 });
      assert.equal((await errorOf(client, 'agent.prompt', { target: pane, text: 'more' })).data.code, 'budget_exceeded', 'still spent after the restart');
      assert.equal((await client.call('agent.get', { target: pane })).usage.budget?.percent, '100', 'still at 100% after the restart');
      await client.call('agent.prompt', { target: pane, text: 'forced again', force: true });
      await waitFor(async () => (await client.call('agent.get', { target: pane })).usage.tokens.input === 5000, { what: 'the next forced turn read, not the earlier ones again' });
      assert.deepEqual(await crossings(), ['80', '100'], 'no crossing told again after the restart');
      assert.equal(readFileSync(paged, 'utf8').split('\n').filter((line) => line.includes('budget')).length, 1, 'paged once, at 100% (never at 80%), and not again after the restart');
    } finally {
      client.client.close();
      for (const daemon of daemons) await daemon.dispose();
    }
  });
});
