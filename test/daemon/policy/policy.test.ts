import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { waitFor } from '../../../harness/wait.ts';
import { runCli } from '../../helpers/cli.ts';
import { TEST_POLICY, usePolicyDaemon } from './policy-daemon.ts';

const INBAND_DIALOG = fileURLToPath(new URL('../../fixtures/agents/inband-dialog.mjs', import.meta.url));

describe('an approval policy answers the prompts of agents identified by their process, and logs every decision', () => {
  const { dir, configDir, session, launcher, usePolicy } = usePolicyDaemon();
  const { call, agentUntil } = session;
  let logs = 0;

  /** The fake agent in a pane, identified by its process; its keys logged; its form the command alone (a rule can read it). */
  const claude = async (env: Record<string, string> = {}) => {
    const keylog = join(dir, `keys-${(logs += 1)}.log`);
    const pane = await call('pane.spawn', { command: launcher, args: [], cwd: dir, env: { FAKE_WORK_MS: '200', FAKE_KEYLOG: keylog, FAKE_NO_DESCRIPTION: '1', ...env } });
    const info = await agentUntil(pane.id, (i) => i.agent === 'claude' && i.rawState === 'idle', 'the idle prompt box');
    assert.equal(info.identity, 'process');
    // What was typed after the prompt that asked (its Enter), as the fake read it.
    const keys = (): string[] => {
      const all: string[] = existsSync(keylog) ? readFileSync(keylog, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
      return all.slice(all.indexOf('\r') + 1);
    };
    return { id: pane.id as string, keys };
  };

  /** The policy's decision on the pane's prompt `promptId` (its first decision, without one), once it is logged. */
  const decisionOn = async (pane: string, what: string, promptId?: string, timeoutMs?: number) => {
    let found: any;
    await waitFor(async () => (found = (await call('policy.log', { target: pane })).decisions.find((d: any) => promptId === undefined || d.promptId === promptId)) !== undefined, {
      what,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
    return found;
  };

  const asking = async (id: string, text: string) => {
    await call('agent.prompt', { target: id, text });
    return (await agentUntil(id, (i) => i.state === 'blocked' && i.prompt?.complete === true, `the permission form for ${text}`)).prompt;
  };

  it('answers an allowed command with its allow-once choice, and logs it in the event log and the audit log', async () => {
    const { id, keys } = await claude();
    const prompt = await asking(id, 'perm npm test');
    const decision = await decisionOn(id, 'the decision on npm test');
    assert.deepEqual(
      [decision.promptId, decision.action, decision.choice, decision.rule.number, decision.rule.line, decision.answered, decision.source, decision.mode],
      [prompt.id, 'allow', 'yes', 1, 3, true, 'screen', 'on'],
    );
    assert.deepEqual(decision.subject, { tool: 'bash', command: 'npm test', path: null });
    await session.screenContains(id, 'Command ran.');
    assert.deepEqual(keys(), ['1'], 'only the choice was typed');
    const events = await call('events.read', { filter: `kind:policy.decided pane:${id}` });
    assert.equal(events.events.at(-1).data.decision.promptId, prompt.id);
    const status = await call('policy.status', {});
    assert.equal(status.active, true);
    assert.ok(readFileSync(status.log, 'utf8').includes(`"promptId":"${prompt.id}"`), 'a line of the audit log');
    const explained = await runCli(['--socket', session.daemon.socket, 'agent', 'explain', id]);
    assert.match(explained.stdout, new RegExp(`policy: prompt ${prompt.id} answered by policy rule 1 \\(.*policy\\.toml:3\\) "tests" with yes`));
    const log = await runCli(['--socket', session.daemon.socket, 'policy', 'log', id]);
    assert.match(log.stdout, /bash "npm test" {2}answered by policy rule 1/);
    await call('pane.kill', { target: id });
  });

  it('denies with the deny choice', async () => {
    const { id, keys } = await claude();
    await asking(id, 'perm curl https://example.com/x');
    const decision = await decisionOn(id, 'the decision on curl');
    assert.deepEqual([decision.action, decision.choice, decision.message, decision.answered], ['deny', 'no-and-tell-claude-what-to-do', 'no downloads here', true]);
    await session.screenContains(id, 'Declined.');
    assert.deepEqual(keys(), ['\x1b']);
    await call('pane.kill', { target: id });
  });

  it('leaves an unmatched command and a compound one to the person: blocked, in the inbox, nothing typed', async () => {
    for (const command of ['make build', 'npm test && curl x | sh']) {
      const { id, keys } = await claude();
      await asking(id, `perm ${command}`);
      const decision = await decisionOn(id, `the decision on ${command}`);
      assert.equal(decision.action, 'ask', command);
      assert.equal(decision.answered, false);
      assert.match(decision.reason, /no rule matched/);
      assert.equal((await call('agent.get', { target: id })).state, 'blocked');
      assert.ok((await call('inbox.list', {})).items.some((item: any) => item.pane.id === id && item.state === 'blocked'), 'in the inbox');
      assert.deepEqual(keys(), []);
      await call('pane.kill', { target: id });
    }
  });

  it('never answers an incomplete prompt, and answers it once it is whole', async () => {
    const rest = join(dir, 'dialog-rest');
    const { id, keys } = await claude({ FAKE_DIALOG_REST: rest });
    await call('agent.prompt', { target: id, text: 'perm npm test' });
    const piece = (await agentUntil(id, (i) => i.state === 'blocked' && i.prompt !== undefined, 'the form without its footer')).prompt;
    assert.equal(piece.complete, false);
    const check = await call('policy.check', { target: id });
    assert.equal(check.decision.action, 'ask');
    assert.match(check.decision.reason, /not complete/);
    assert.deepEqual((await call('policy.log', { target: id })).decisions, []);
    assert.deepEqual(keys(), []);
    writeFileSync(rest, '');
    const decision = await decisionOn(id, 'the decision once the form is whole');
    assert.deepEqual([decision.promptId, decision.action, decision.answered], [piece.id, 'allow', true]);
    await call('pane.kill', { target: id });
  });

  it('stops a pane that loops on the same prompt after loop_limit answers a minute', async () => {
    await usePolicy(`loop_limit = 3\n${TEST_POLICY}`);
    // Each approval works for longer than the debounce, so each form is a new prompt.
    const { id, keys } = await claude({ FAKE_PERM_LOOP: '1', FAKE_WORK_MS: '1000' });
    await call('agent.prompt', { target: id, text: 'perm npm test' });
    let decisions: any[] = [];
    try {
      await waitFor(async () => (decisions = (await call('policy.log', { target: id })).decisions).length >= 4, { what: 'four decisions', timeoutMs: 20_000 });
    } catch (error) {
      throw new Error(`${(error as Error).message}: ${JSON.stringify(decisions)}`);
    }
    assert.deepEqual(decisions.map((d) => [d.action, d.answered]), [['allow', true], ['allow', true], ['allow', true], ['ask', false]]);
    assert.match(decisions[3].reason, /loop guard/);
    assert.equal((await call('agent.get', { target: id })).state, 'blocked');
    assert.deepEqual(keys(), ['1', '1', '1']);
    await call('pane.kill', { target: id });
  });

  it('does not answer a dialog that changed between the decision and the keys', async () => {
    await usePolicy(`answer_delay_ms = 8000\n[[rule]]\ncommand = 'rm -rf /tmp/fake-agent-scratch'\naction = "allow"\n`);
    const { id, keys } = await claude();
    const first = await asking(id, 'perm rm -rf /tmp/fake-agent-scratch');
    // The agent explains: the dialog changes within the grace (its 8 s are a bound no reply here comes near).
    await call('pane.send', { target: id, keys: ['C-e'] });
    const decision = await decisionOn(id, 'the decision on the first dialog, after its grace', first.id, 30_000);
    assert.deepEqual([decision.promptId, decision.action, decision.answered, decision.outcome], [first.id, 'allow', false, 'prompt_changed']);
    assert.deepEqual(keys(), ['\x05'], 'only the key that changed the dialog');
    assert.equal((await call('agent.get', { target: id })).state, 'blocked');
    await call('pane.kill', { target: id });
  });

  it('pauses and resumes, and in dry-run decides and logs without typing', async () => {
    await usePolicy(TEST_POLICY);
    assert.equal((await call('policy.pause', {})).active, false);
    const paused = await claude();
    await asking(paused.id, 'perm npm test');
    const held = await decisionOn(paused.id, 'the decision while paused');
    assert.deepEqual([held.action, held.mode, held.answered], ['allow', 'paused', false]);
    assert.deepEqual(paused.keys(), []);
    assert.equal((await call('policy.resume', {})).active, true);
    await call('pane.kill', { target: paused.id });
    await usePolicy(`mode = "dry-run"\n${TEST_POLICY}`);
    const dry = await claude();
    await asking(dry.id, 'perm npm test');
    const decided = await decisionOn(dry.id, 'the dry-run decision');
    assert.deepEqual([decided.action, decided.mode, decided.answered], ['allow', 'dry-run', false]);
    assert.deepEqual(dry.keys(), []);
    await call('pane.kill', { target: dry.id });
    await usePolicy(TEST_POLICY);
  });

  it('refuses a policy that is not valid at reload, naming file and line, and keeps the one it had', async () => {
    writeFileSync(join(configDir, 'policy.toml'), `${TEST_POLICY}\n[[rule]]\naction = "allow"\ncommand = '(?=x)'\n`);
    const refused = await session.callError('server.reloadConfig', {});
    assert.equal(refused.data.code, 'policy_invalid');
    assert.equal(refused.data.line, 17);
    assert.match(refused.message, /policy\.toml:17: "command" is not an RE2 regex/);
    assert.equal((await call('policy.status', {})).rules, 2);
    await usePolicy(TEST_POLICY);
  });

  it('never answers a dialog drawn by a program that names its agent only in-band', async () => {
    const keylog = join(dir, 'inband-keys.log');
    const pane = await call('pane.spawn', { command: process.execPath, args: [INBAND_DIALOG], cwd: dir, env: { FAKE_KEYLOG: keylog } });
    const info = await agentUntil(pane.id, (i) => i.agent === 'claude' && i.state === 'blocked' && i.prompt?.complete === true, 'the in-band agent blocked on its drawn form');
    assert.equal(info.identity, 'report');
    const decision = await decisionOn(pane.id, 'the decision on the in-band dialog');
    assert.equal(decision.action, 'ask');
    assert.match(decision.reason, /not by its process/);
    assert.equal(existsSync(keylog), false, 'nothing typed');
    await call('pane.kill', { target: pane.id });
  });
});
