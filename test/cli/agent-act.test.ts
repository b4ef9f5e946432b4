import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { CORRAL_BIN } from '../../harness/daemon.ts';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';

const FAKE = fileURLToPath(new URL('../fixtures/agents/fake-claude.mjs', import.meta.url));
const REPORT_PROXY = fileURLToPath(new URL('../fixtures/report-proxy.mjs', import.meta.url));

/** The CLI with `input` on its stdin. */
function runCliWithInput(args: string[], input: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CORRAL_BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('corral agent prompt, answer, queue and pane metadata', () => {
  const session = useDaemon();
  const { agentUntil } = session;
  const corral = (...args: string[]) => runCli(['--socket', session.daemon.socket, ...args]);
  const agent = (target: string) => session.call('agent.get', { target });
  const fakeAgent = async (name: string, workMs: number): Promise<void> => void (await session.fakeAgent(workMs, { name }));

  const kill = async (target: string): Promise<void> => void (await session.call('pane.kill', { target }));
  const screen = async (target: string): Promise<string> => (await session.call('pane.read', { target })).text;

  it('prompts from an argument and from stdin, exiting 0', async () => {
    await fakeAgent('poet', 200);
    const typed = await corral('agent', 'prompt', 'poet', 'write a haiku');
    assert.equal(typed.code, 0, typed.stderr);
    assert.match(typed.stdout, /^delivered to poet \(sinceSeq \d+\)/);
    await agentUntil('poet', (i) => i.rawState === 'idle' && i.revision > 2, 'idle after the first prompt');
    await waitFor(async () => (await screen('poet')).includes('Task complete.'), { what: 'the first turn done' });
    const piped = await runCliWithInput(['--socket', session.daemon.socket, '--json', 'agent', 'prompt', 'poet', '-'], 'from stdin\n');
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(JSON.parse(piped.stdout).delivered, true);
    await waitFor(async () => (await screen('poet')).includes('> from stdin'), { what: 'the piped prompt submitted' });
    await kill('poet');
  });

  it('refuses to prompt a blocked agent with exit 6 naming corral agent answer, then answers it', async () => {
    await fakeAgent('guarded', 200);
    await session.call('agent.prompt', { target: 'guarded', text: 'perm' });
    await agentUntil('guarded', (i) => i.state === 'blocked', 'the permission form');
    const refused = await corral('agent', 'prompt', 'guarded', 'hello');
    assert.equal(refused.code, 6);
    assert.match(refused.stderr, /corral agent answer guarded/);
    assert.match(refused.stderr, /\[agent_blocked\]/);
    const usage = await corral('agent', 'answer', 'guarded');
    assert.equal(usage.code, 2);
    const answered = await corral('agent', 'answer', 'guarded', '1');
    assert.equal(answered.code, 0, answered.stderr);
    assert.match(answered.stdout, /^guarded left blocked: now (working|idle|done)/);
    const again = await corral('agent', 'answer', 'guarded', '1');
    assert.equal(again.code, 1);
    assert.match(again.stderr, /not waiting on a decision.*\[agent_not_blocked\]/);
    await kill('guarded');
  });

  it('shows the question with agent get and answers it by a choice label or its start', async () => {
    await fakeAgent('asker', 200);
    await session.call('agent.prompt', { target: 'asker', text: 'perm' });
    // The form drawn to its last line: one drawn in pieces reads as a growing prompt until then.
    await agentUntil('asker', (i) => i.state === 'blocked' && i.prompt?.choices.some((c: any) => c.id === 'explain'), 'the permission form');
    const shown = await corral('agent', 'get', 'asker');
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /asks:\s+permission: Bash command · rm -rf \/tmp\/fake-agent-scratch · Remove the scratch folder · Do you want to proceed\?/);
    assert.match(shown.stdout, /choices:\s+yes \[1\]\*, no-and-tell-claude-what-to-do \[Escape\], amend \[Tab\], explain \[C-e\]/);
    const unknown = await corral('agent', 'answer', 'asker', 'maybe');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no choice "maybe"; its choices: yes \[1\]\*/);
    const answered = await corral('agent', 'answer', 'asker', 'yes');
    assert.equal(answered.code, 0, answered.stderr);
    assert.match(answered.stdout, /^asker left blocked: now (working|idle|done)/);
    await waitFor(async () => (await screen('asker')).includes('Command ran.'), { what: 'the command run after yes' });

    await session.call('agent.prompt', { target: 'asker', text: 'automode' });
    await agentUntil('asker', (i) => i.state === 'blocked' && i.prompt?.choices.some((c: any) => c.id === 'cancel'), 'the auto mode dialog');
    const left = await corral('agent', 'answer', 'asker', 'leave', 'for');
    assert.equal(left.code, 0, left.stderr);
    await waitFor(async () => (await screen('asker')).includes('Left auto mode.'), { what: 'the dialog left by shift+Tab' });
    await kill('asker');
  });

  it('refuses a number the unnumbered trust dialog does not offer at once, naming its choices, then answers by label', async () => {
    await fakeAgent('truster', 200);
    await session.call('agent.prompt', { target: 'truster', text: 'trust' });
    await agentUntil('truster', (i) => i.state === 'blocked' && i.prompt?.choices.some((c: any) => c.id === 'no-exit'), 'the trust dialog');
    const refused = await corral('agent', 'answer', 'truster', '1');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /offers no choice 1; its choices: no-exit \[Enter\], yes-i-trust-this-folder, cancel \[Escape\]; nothing was typed \[choice_not_offered\]/);
    const answered = await corral('agent', 'answer', 'truster', 'yes');
    assert.equal(answered.code, 0, answered.stderr);
    assert.match(answered.stdout, /^truster left blocked: now (working|idle|done)/);
    await kill('truster');
  });

  it('exits 124 when the answer does not move the agent out of blocked in time', async () => {
    await fakeAgent('stuck', 200);
    await session.call('agent.prompt', { target: 'stuck', text: 'perm' });
    await agentUntil('stuck', (i) => i.state === 'blocked', 'the permission form');
    const late = await corral('agent', 'answer', 'stuck', '--keys', 'Tab', '--timeout', '300', '--json');
    assert.equal(late.code, 124);
    assert.equal(JSON.parse(late.stderr).error.code, 'timeout');
    await kill('stuck');
  });

  it('queues a prompt to a working agent by default and says so, lists the queue and clears it; --now types at once', async () => {
    // Busy far longer than the test: on a slow machine a shorter turn ended mid-test and drained the queue.
    await fakeAgent('busy', 600_000);
    await session.call('agent.prompt', { target: 'busy', text: 'long job' });
    await agentUntil('busy', (i) => i.state === 'working', 'working');
    const first = await corral('agent', 'prompt', 'busy', 'next step');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^queued for busy at position 1: the agent works; it is typed when the agent is next idle/);
    const second = await corral('--json', 'agent', 'prompt', 'busy', 'then this', '--queue', '--no-submit');
    assert.deepEqual(JSON.parse(second.stdout), { queued: true, position: 2 });
    const listed = await corral('agent', 'queue', 'busy');
    assert.match(listed.stdout, /^#\s+AGE\s+SUBMIT\s+TEXT\n1\s+\S+\s+yes\s+next step\n2\s+\S+\s+no\s+then this\n$/);
    assert.equal((await agent('busy')).queued, 2);
    const cleared = await corral('agent', 'queue', 'busy', '--clear');
    assert.match(cleared.stdout, /cleared 2 queued prompts of busy/);
    assert.deepEqual(await session.call('agent.queue', { target: 'busy' }), { queued: 0, prompts: [] });
    const now = await corral('agent', 'prompt', 'busy', 'steer now', '--now');
    assert.equal(now.code, 0, now.stderr);
    assert.match(now.stdout, /^delivered to busy \(sinceSeq \d+\)/);
    assert.equal((await agent('busy')).queued, 0);
    await kill('busy');
  });

  it('refuses a prompt after a draft in the input box, exit 1 with the draft; --replace and --append say what to do with it', async () => {
    await fakeAgent('drafted', 150);
    await session.call('agent.prompt', { target: 'drafted', text: 'half a thought', submit: false });
    await waitFor(async () => (await agent('drafted')).composer === 'half a thought', { what: 'the draft in agent.get' });
    assert.match((await corral('agent', 'get', 'drafted')).stdout, /^composer:\s+"half a thought"$/m);
    const refused = await corral('--json', 'agent', 'prompt', 'drafted', 'a new prompt');
    assert.equal(refused.code, 1);
    const error = JSON.parse(refused.stderr).error;
    assert.equal(error.code, 'composer_not_empty');
    assert.match(error.message, /holds a draft in its input box \("half a thought"\).*--replace.*--append/);
    assert.equal((await corral('agent', 'prompt', 'drafted', 'x', '--replace', '--append')).code, 2);
    const appended = await corral('agent', 'prompt', 'drafted', 'and more', '--append', '--no-submit');
    assert.equal(appended.code, 0, appended.stderr);
    await waitFor(async () => (await agent('drafted')).composer === 'half a thought and more', { what: 'the appended draft' });
    const replaced = await corral('agent', 'prompt', 'drafted', 'a new prompt', '--replace');
    assert.equal(replaced.code, 0, replaced.stderr);
    await session.screenContains('drafted', 'Task complete.');
    assert.match(await screen('drafted'), /^> a new prompt$/m);
    await kill('drafted');
  });

  it('reports display metadata with corral pane metadata from inside the pane, shown by agent.get; refuses it from outside', async () => {
    // The fake agent with a relay beside it in the pane: a CLI on the relay's socket reports from inside.
    const relay = join(session.daemon.dir, 'shown-relay.sock');
    const script = `${JSON.stringify(process.execPath)} ${JSON.stringify(REPORT_PROXY)} ${JSON.stringify(relay)} >/dev/null & exec ${JSON.stringify(process.execPath)} ${JSON.stringify(FAKE)}`;
    await session.call('pane.spawn', { command: 'sh', args: ['-c', script], name: 'shown', cwd: session.daemon.dir, env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '200' } });
    await agentUntil('shown', (i) => i.agent === 'claude' && i.rawState === 'idle', 'the idle prompt box');
    await waitFor(() => existsSync(relay), { what: 'the relay to listen' });
    const outside = await corral('pane', 'metadata', 'shown', '--source', 'outsider', '--title', 'spoofed');
    assert.equal(outside.code, 1);
    assert.match(outside.stderr, /\[not_in_pane\]/);
    const before = await agent('shown');
    assert.equal(before.metadata, null);
    const reported = await runCli(['--socket', relay, 'pane', 'metadata', 'shown', '--source', 'user:batch', '--title', 'Items 1-12', '--display-agent', 'Claude: docs', '--state-label', 'drafting', '--tokens', '4200', '--ttl', '60000']);
    assert.equal(reported.code, 0, reported.stderr);
    assert.match(reported.stdout, /title:\s+Items 1-12/);
    const info = await agent('shown');
    assert.deepEqual([info.metadata.title, info.metadata.displayAgent, info.metadata.stateLabel, info.metadata.tokens], ['Items 1-12', 'Claude: docs', 'drafting', 4200]);
    assert.equal(info.revision, before.revision);
    assert.equal((await corral('pane', 'metadata', 'nobody', '--source', 's', '--title', 'x')).code, 3);
    await kill('shown');
  });
});
