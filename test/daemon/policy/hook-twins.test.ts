import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { HOOK_TWIN_WINDOW_MS, HookTwins } from '../../../src/daemon/policy/hook-twins.ts';
import { waitFor } from '../../../harness/wait.ts';
import { runCli } from '../../helpers/cli.ts';
import { TEST_POLICY, usePolicyDaemon } from './policy-daemon.ts';

describe("Corral's hooks both per launch and in the user's settings: the agent runs both, and each request is decided once", () => {
  // One automatic answer a minute: a request decided twice would trip the loop guard on its second decision.
  const { dir, session, launcher } = usePolicyDaemon(`loop_limit = 1\n${TEST_POLICY}`);
  const { call, agentUntil } = session;
  let panes = 0;

  const lines = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []);

  /** The fake agent with the hooks of its launch and of its user settings, which the real `corral integration install` wrote. */
  const claudeWithUserHooks = async () => {
    panes += 1;
    const configDir = join(dir, `claude-config-${panes}`);
    mkdirSync(configDir);
    const env = { ...process.env, CLAUDE_CONFIG_DIR: configDir };
    const installed = await runCli(['integration', 'install', 'claude'], { env, cwd: dir });
    assert.equal(installed.code, 0, installed.stderr);
    const hookOut = join(dir, `hook-${panes}.log`);
    const keylog = join(dir, `keys-${panes}.log`);
    const pane = await call('pane.spawn', {
      command: launcher,
      cwd: dir,
      env: { FAKE_WORK_MS: '200', FAKE_KEYLOG: keylog, FAKE_NO_DESCRIPTION: '1', FAKE_PERMISSION_HOOK: '1', FAKE_HOOK_STDOUT: hookOut, CLAUDE_CONFIG_DIR: configDir, CORRAL_HOOK_DEADLINE_MS: '10000' },
    });
    await agentUntil(pane.id, (i) => i.agent === 'claude' && i.rawState === 'idle', 'the idle prompt box');
    const keys = () => {
      const all = lines(keylog);
      return all.slice(all.lastIndexOf('\r') + 1);
    };
    return { id: pane.id as string, keys, hookPrinted: () => lines(hookOut).map((out) => (out === '' ? '' : JSON.parse(out).hookSpecificOutput.decision.behavior)) };
  };

  const decisions = async (pane: string): Promise<any[]> => (await call('policy.log', { target: pane })).decisions;

  it('both hooks ask about one request: both get the allow, one decision is logged, and the loop guard counts one answer', async () => {
    const { id, keys, hookPrinted } = await claudeWithUserHooks();
    await call('agent.prompt', { target: id, text: 'perm npm test' });
    await session.screenContains(id, 'Command ran.');
    assert.deepEqual(hookPrinted(), ['allow', 'allow'], 'two hooks ran, and both took the one decision');
    assert.deepEqual((await decisions(id)).map((d) => [d.source, d.action, d.answered]), [['hook', 'allow', true]]);
    const events = await call('events.read', { filter: `kind:policy.decided pane:${id}` });
    assert.equal(events.events.length, 1, 'one policy.decided event');
    assert.deepEqual(keys(), [], 'nothing typed');

    // The same request in the next turn is a new one: decided again, and now past the guard's one answer.
    await agentUntil(id, (i) => i.rawState === 'idle', 'idle after the first turn');
    await call('agent.prompt', { target: id, text: 'perm npm test' });
    await agentUntil(id, (i) => i.state === 'blocked' && i.prompt?.complete === true, 'the second form, past the guard');
    const logged = await waitFor(async () => ((await decisions(id)).length >= 2 ? decisions(id) : null), { what: 'the second decision' });
    assert.deepEqual(logged!.map((d: any) => [d.action, d.answered]), [['allow', true], ['ask', false]]);
    assert.match(logged![1].reason, /loop guard/);
    assert.deepEqual(hookPrinted(), ['allow', 'allow', '', ''], 'both hooks of the second request printed nothing');
    await call('policy.status', {});
    assert.equal((await decisions(id)).length, 2, 'the second request is decided once too');
    assert.deepEqual(keys(), []);
    await call('pane.kill', { target: id });
  });

  it("a deny reaches both hooks with the rule's message and is logged once", async () => {
    const { id, keys, hookPrinted } = await claudeWithUserHooks();
    await call('agent.prompt', { target: id, text: 'perm curl https://example.com/x' });
    await session.screenContains(id, 'Denied by hook: no downloads here');
    assert.deepEqual(hookPrinted(), ['deny', 'deny']);
    assert.deepEqual((await decisions(id)).map((d) => [d.source, d.action, d.message]), [['hook', 'deny', 'no downloads here']]);
    assert.deepEqual(keys(), []);
    await call('pane.kill', { target: id });
  });
});

describe("a hook request's life, in which a second copy of the hook gets its answer", () => {
  const allow = { behavior: 'allow' as const, message: null, reason: 'rule 1' };
  const request = { agent: 'claude', tool: 'Bash', command: 'npm test' };

  it('is the same request within its window, with no report since that the agent went on', () => {
    let now = 1000;
    const twins = new HookTwins(() => now);
    twins.remember('p1', request, 7, allow);
    assert.deepEqual(twins.twin('p1', { ...request }, 7), allow);
    assert.equal(twins.twin('p2', request, 7), null, 'another pane');
    assert.equal(twins.twin('p1', { ...request, command: 'npm test -- --watch' }, 7), null, 'another command');
    assert.equal(twins.twin('p1', { ...request, path: '/x' }, 7), null, 'another path');
    assert.equal(twins.twin('p1', { ...request, agent: 'qwen' }, 7), null, 'another agent');
    assert.equal(twins.twin('p1', request, 8), null, 'a report since says the agent went on');
    now += HOOK_TWIN_WINDOW_MS - 1;
    assert.deepEqual(twins.twin('p1', request, 7), allow);
    now += 1;
    assert.equal(twins.twin('p1', request, 7), null, 'past the window');
  });

  it('ends when the turn ends or the policy changes', () => {
    const twins = new HookTwins(() => 0);
    twins.remember('p1', request, 0, allow);
    twins.forget('p1');
    assert.equal(twins.twin('p1', request, 0), null);
    twins.remember('p1', request, 0, allow);
    twins.clear();
    assert.equal(twins.twin('p1', request, 0), null);
  });
});
