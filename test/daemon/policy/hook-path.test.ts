import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { waitFor } from '../../../harness/wait.ts';
import { runCli } from '../../helpers/cli.ts';
import { TEST_POLICY, usePolicyDaemon } from './policy-daemon.ts';

describe("the hook path: the policy's decision goes back through the agent's own permission hook, and nothing is typed", () => {
  const { dir, session, launcher, usePolicy } = usePolicyDaemon();
  const { call, agentUntil } = session;
  let panes = 0;

  const lines = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []);

  /** The fake agent running its PermissionRequest hook before each form; what it read as keys and what its hook printed. */
  const claude = async (env: Record<string, string> = {}) => {
    panes += 1;
    const keylog = join(dir, `keys-${panes}.log`);
    const hookOut = join(dir, `hook-${panes}.log`);
    const pane = await call('pane.spawn', {
      command: launcher,
      cwd: dir,
      env: { FAKE_WORK_MS: '200', FAKE_KEYLOG: keylog, FAKE_NO_DESCRIPTION: '1', FAKE_PERMISSION_HOOK: '1', FAKE_HOOK_STDOUT: hookOut, CORRAL_HOOK_DEADLINE_MS: '10000', ...env },
    });
    assert.equal((await agentUntil(pane.id, (i) => i.agent === 'claude' && i.rawState === 'idle', 'the idle prompt box')).identity, 'process');
    const keys = () => {
      const all = lines(keylog);
      return all.slice(all.lastIndexOf('\r') + 1); // after the Enter of the last prompt
    };
    return { id: pane.id as string, keys, hookPrinted: () => lines(hookOut) };
  };

  const decisions = async (pane: string): Promise<any[]> => (await call('policy.log', { target: pane })).decisions;

  it('an agent that draws its form while its hook runs: the screen path waits for the hook, which allows; nothing typed, one decision', async () => {
    // The hooks report the turns (source hook:claude): this pane's agent is on the hook path.
    const { id, keys, hookPrinted } = await claude({ FAKE_PERMISSION_HOOK: 'late', FAKE_HOOKS: '1' });
    await call('agent.prompt', { target: id, text: 'hello' });
    await session.screenContains(id, 'Task complete.');
    await agentUntil(id, (i) => i.rawState === 'idle', 'idle after the first turn');
    await call('agent.prompt', { target: id, text: 'perm npm test' });
    await session.screenContains(id, 'Command ran.');
    assert.deepEqual((await decisions(id)).map((d) => [d.source, d.action, d.answered]), [['hook', 'allow', true]], 'the form on screen was not decided again');
    assert.equal(hookPrinted().length, 1);
    assert.deepEqual(keys(), [], 'nothing typed');
  });

  it('allows through the hook: the command runs, no dialog is drawn, nothing is typed, and the decision is logged with source hook', async () => {
    const { id, keys, hookPrinted } = await claude();
    await call('agent.prompt', { target: id, text: 'perm npm test' });
    const screen = await session.screenContains(id, 'Command ran.');
    assert.match(screen, /Allowed by hook\./);
    assert.doesNotMatch(screen, /Do you want to proceed/);
    const [decision] = await decisions(id);
    assert.deepEqual(
      [decision.action, decision.choice, decision.source, decision.mode, decision.answered, decision.rule.number, decision.subject],
      ['allow', 'allow', 'hook', 'on', true, 1, { tool: 'bash', command: 'npm test', path: null }],
    );
    assert.match(decision.promptId, /^hook-/);
    assert.deepEqual(JSON.parse(hookPrinted()[0]!), { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    assert.deepEqual(keys(), [], 'nothing typed');
    const events = await call('events.read', { filter: `kind:policy.decided pane:${id}` });
    assert.equal(events.events.at(-1).data.decision.source, 'hook');
    assert.equal((await call('inbox.list', {})).items.some((item: any) => item.pane.id === id), false, 'never blocked, never in the inbox');
    const explained = await runCli(['--socket', session.daemon.socket, 'agent', 'explain', id]);
    assert.match(explained.stdout, /policy: prompt hook-\S+ answered by policy rule 1 \(.*policy\.toml:3\) "tests" with allow through the agent's hook/);
    await call('pane.kill', { target: id });
  });

  it("denies through the hook with the rule's message, which the agent gets", async () => {
    const { id, keys, hookPrinted } = await claude();
    await call('agent.prompt', { target: id, text: 'perm curl https://example.com/x' });
    await session.screenContains(id, 'Denied by hook: no downloads here');
    const [decision] = await decisions(id);
    assert.deepEqual([decision.action, decision.choice, decision.message, decision.source, decision.answered], ['deny', 'deny', 'no downloads here', 'hook', true]);
    assert.equal(JSON.parse(hookPrinted()[0]!).hookSpecificOutput.decision.behavior, 'deny');
    assert.deepEqual(keys(), []);
    await call('pane.kill', { target: id });
  });

  it('prints nothing for a request no rule decides: the agent draws its dialog for the person, and the screen path does not decide it again', async () => {
    const { id, keys, hookPrinted } = await claude();
    await call('agent.prompt', { target: id, text: 'perm make build' });
    await agentUntil(id, (i) => i.state === 'blocked' && i.prompt?.complete === true, 'the form drawn after the hook');
    assert.deepEqual(hookPrinted(), ['']);
    // One more round trip: the screen path's look at the form (on the change's next turn) has run by now.
    await call('policy.status', {});
    const logged = await decisions(id);
    assert.deepEqual(logged.map((d) => [d.source, d.action, d.answered]), [['hook', 'ask', false]]);
    assert.match(logged[0].reason, /no rule matched/);
    assert.ok((await call('inbox.list', {})).items.some((item: any) => item.pane.id === id && item.state === 'blocked'), 'in the inbox');
    assert.deepEqual(keys(), []);
    await call('pane.kill', { target: id });
  });

  it('paused, or in dry-run, the hook prints nothing, the decision is logged once, and nothing is typed', async () => {
    await call('policy.pause', {});
    const paused = await claude();
    await call('agent.prompt', { target: paused.id, text: 'perm npm test' });
    await agentUntil(paused.id, (i) => i.state === 'blocked' && i.prompt?.complete === true, 'the form while paused');
    await call('policy.status', {});
    assert.deepEqual((await decisions(paused.id)).map((d) => [d.source, d.action, d.mode, d.answered]), [['hook', 'allow', 'paused', false]]);
    assert.deepEqual(paused.hookPrinted(), ['']);
    assert.deepEqual(paused.keys(), []);
    await call('policy.resume', {});
    await call('pane.kill', { target: paused.id });
    await usePolicy(`mode = "dry-run"\n${TEST_POLICY}`);
    const dry = await claude();
    await call('agent.prompt', { target: dry.id, text: 'perm npm test' });
    await agentUntil(dry.id, (i) => i.state === 'blocked' && i.prompt?.complete === true, 'the form in dry-run');
    await call('policy.status', {});
    assert.deepEqual((await decisions(dry.id)).map((d) => [d.source, d.action, d.mode, d.answered]), [['hook', 'allow', 'dry-run', false]]);
    assert.deepEqual(dry.keys(), []);
    await call('pane.kill', { target: dry.id });
    await usePolicy(TEST_POLICY);
  });

  it('the loop guard counts hook answers too: past loop_limit the agent draws its dialog', async () => {
    await usePolicy(`loop_limit = 1\n${TEST_POLICY}`);
    const { id, keys, hookPrinted } = await claude();
    await call('agent.prompt', { target: id, text: 'perm npm test' });
    await session.screenContains(id, 'Command ran.');
    await call('agent.prompt', { target: id, text: 'perm npm test' });
    await agentUntil(id, (i) => i.state === 'blocked' && i.prompt?.complete === true, 'the second form, past the guard');
    const logged = await waitFor(async () => ((await decisions(id)).length === 2 ? decisions(id) : null), { what: 'two decisions' });
    assert.deepEqual(logged!.map((d: any) => [d.source, d.action, d.answered]), [['hook', 'allow', true], ['hook', 'ask', false]]);
    assert.match(logged![1].reason, /loop guard/);
    assert.equal(hookPrinted()[1], '');
    assert.deepEqual(keys(), []);
    await call('pane.kill', { target: id });
    await usePolicy(TEST_POLICY);
  });
});
