import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { DaemonConnection } from '../../../src/cli/with-daemon.ts';
import { EVENT } from '../../../src/protocol/notifications.ts';
import { EVENTS_SUBSCRIBE, type CorralEvent } from '../../../src/protocol/methods/events.ts';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

/**
 * A prompt's identity is the dialog on the screen, and agent.answer's reply says what the agent does
 * once that dialog is gone (issue 39), through a real daemon and the fake agent on a real PTY.
 */
describe('one id per dialog, and replies that tell the truth', () => {
  const session = useDaemon();
  const { call, callError, agentUntil } = session;
  let files = 0;
  const file = (what: string) => join(session.daemon.dir, `${what}-${(files += 1)}`);

  /** The fake agent, with every event of its pane kept and every key it read logged. */
  const watched = async (env: Record<string, string> = {}) => {
    const log = file('keys');
    const id = await session.fakeAgent(300, { env: { FAKE_KEYLOG: log, ...env } });
    const subscriber = await DaemonConnection.connect(session.daemon.socket);
    const events: CorralEvent[] = [];
    subscriber.onNotification(EVENT, (event) => events.push(event as CorralEvent));
    await subscriber.call(EVENTS_SUBSCRIBE, { filter: `pane:${id}` });
    const keys = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as string) : []);
    /** The ids of every prompt the pane's events carried, in order. */
    const promptIds = () => events.flatMap((e) => ((e.data as any)?.prompt ? [(e.data as any).prompt.id as string] : []));
    return { id, events, keys, promptIds, dispose: () => subscriber.dispose() };
  };
  const trustDialog = (id: string) =>
    agentUntil(id, (i) => i.state === 'blocked' && i.prompt?.choices.some((c: any) => c.id === 'no-exit'), 'the trust dialog with its choices');
  const permissionForm = (id: string) => agentUntil(id, (i) => i.state === 'blocked' && i.prompt?.choices.some((c: any) => c.id === 'explain'), 'the permission form');
  const title = async (id: string) => (await call('pane.get', { target: id })).title as string | null;

  it("keeps a trust dialog's id and kind when OSC 7501 says kind=permission and when a hook reports it blocked", async () => {
    const hint = file('hint');
    const pane = await watched({ FAKE_HINT: hint });
    await call('agent.prompt', { target: pane.id, text: 'trust' });
    const { prompt } = await trustDialog(pane.id);
    assert.equal(prompt.kind, 'trust');
    assert.deepEqual(
      prompt.choices.map((c: any) => [c.id, c.keys, c.default]),
      [
        ['no-exit', ['Enter'], true],
        ['yes-i-trust-this-folder', ['Down', 'Enter'], false],
        ['cancel', ['Escape'], false],
      ],
    );
    writeFileSync(hint, 'osc'); // the fake sends OSC 7501 state=blocked:kind=permission and redraws the dialog
    await waitFor(async () => (await title(pane.id))?.endsWith('(hints 1)'), { what: 'the OSC 7501 hint read' });
    assert.deepEqual((await call('agent.get', { target: pane.id })).prompt, prompt, 'the same prompt, its kind the reader\'s');
    writeFileSync(hint, 'hook'); // a blocked hook report, message "permission: ..."
    await waitFor(async () => (await title(pane.id))?.endsWith('(hints 2)'), { what: 'the hook report answered' });
    assert.deepEqual((await call('agent.get', { target: pane.id })).prompt, prompt);

    // Down, then Enter: the dialog with its cursor moved may be drawn between them, and is not the reply.
    const reply = await call('agent.answer', { target: pane.id, promptId: prompt.id, choice: 'yes-i-trust-this-folder' });
    assert.equal(reply.outcome, 'left');
    assert.notEqual(reply.state, 'blocked');
    assert.equal(reply.prompt, undefined);
    await session.screenContains(pane.id, 'Trusted.');
    assert.deepEqual([...new Set(pane.promptIds())], [prompt.id], 'one prompt id for the dialog, its cursor moved by the answer included');
    assert.deepEqual(pane.keys().slice(-2), ['\x1b[B', '\r']);
    pane.dispose();
    await call('pane.kill', { target: pane.id });
  });

  it('refuses at once a digit the unnumbered dialog does not offer, naming its choices, and types nothing', async () => {
    const pane = await watched();
    await call('agent.prompt', { target: pane.id, text: 'trust' });
    const { prompt } = await trustDialog(pane.id);
    const typedBefore = pane.keys().length;
    const refused = await callError('agent.answer', { target: pane.id, promptId: prompt.id, choice: 1 });
    assert.equal(refused.data.code, 'choice_not_offered');
    assert.deepEqual(refused.data.choices, ['no-exit', 'yes-i-trust-this-folder', 'cancel']);
    assert.match(refused.message, /offers no choice 1; its choices: no-exit \[Enter\], yes-i-trust-this-folder, cancel \[Escape\]/);
    await call('pane.send', { target: pane.id, text: 'z' });
    await waitFor(() => pane.keys().includes('z'), { what: 'the marker key z read' });
    assert.deepEqual(pane.keys().slice(typedBefore), ['z'], 'the digit was not typed');
    pane.dispose();
    await call('pane.kill', { target: pane.id });
  });

  it('replies left, naming no prompt, when Enter picks "No, exit" and the agent exits', async () => {
    const pane = await watched();
    await call('agent.prompt', { target: pane.id, text: 'trust' });
    const first = (await trustDialog(pane.id)).prompt;
    await call('pane.send', { target: pane.id, keys: ['Down'] });
    const moved = (await agentUntil(pane.id, (i) => i.prompt?.choices.find((c: any) => c.id === 'yes-i-trust-this-folder')?.default === true, 'the cursor on Yes')).prompt;
    assert.notEqual(moved.id, first.id, 'a moved cursor is another dialog: Enter means another choice');
    await call('pane.send', { target: pane.id, keys: ['Up'] });
    const back = (await agentUntil(pane.id, (i) => i.prompt?.choices.find((c: any) => c.id === 'no-exit')?.default === true, 'the cursor back on No, exit')).prompt;
    const reply = await call('agent.answer', { target: pane.id, promptId: back.id, keys: ['Enter'] });
    assert.equal(reply.outcome, 'left');
    assert.notEqual(reply.state, 'blocked');
    assert.equal(reply.prompt, undefined);
    pane.dispose();
  });

  it('makes no prompt of a hook report that comes after the approval, and replies left', async () => {
    const pane = await watched({ FAKE_HOOK_AFTER_APPROVAL: '1' });
    await call('agent.prompt', { target: pane.id, text: 'perm' });
    const { prompt } = await permissionForm(pane.id);
    const reply = await call('agent.answer', { target: pane.id, promptId: prompt.id, choice: 'yes' });
    assert.equal(reply.outcome, 'left');
    assert.equal(reply.prompt, undefined);
    await session.screenContains(pane.id, 'Late hook reported.');
    await agentUntil(pane.id, (i) => i.state === 'idle' || i.state === 'done', 'idle after the command ran');
    assert.deepEqual([...new Set(pane.promptIds())], [prompt.id], 'no prompt after the answered one');
    const blockedAgain = pane.events.filter((e) => e.kind === 'agent.stateChanged' && (e.data as any).to === 'blocked');
    assert.equal(blockedAgain.length, 1, 'blocked once, for the form');
    pane.dispose();
    await call('pane.kill', { target: pane.id });
  });

  it('replies pending, naming no prompt, when a report holds the agent blocked with no dialog on the screen', async () => {
    const pane = await watched({ FAKE_LATE_OSC: '1' });
    await call('agent.prompt', { target: pane.id, text: 'automode' });
    const { prompt } = await agentUntil(pane.id, (i) => i.state === 'blocked' && i.prompt?.choices.some((c: any) => c.id === 'cancel'), 'the auto mode dialog');
    const reply = await call('agent.answer', { target: pane.id, promptId: prompt.id, choice: 'cancel' });
    assert.deepEqual([reply.outcome, reply.state, reply.prompt], ['pending', 'blocked', undefined]);
    const info = await call('agent.get', { target: pane.id });
    assert.deepEqual([info.state, info.prompt], ['blocked', undefined], 'the report after the answer makes no prompt');
    assert.deepEqual([...new Set(pane.promptIds())], [prompt.id]);
    pane.dispose();
    await call('pane.kill', { target: pane.id });
  });

  it("replies next with the dialog now on the screen when the answer changes the form, never the one answered", async () => {
    const pane = await watched();
    await call('agent.prompt', { target: pane.id, text: 'perm' });
    const { prompt } = await permissionForm(pane.id);
    const reply = await call('agent.answer', { target: pane.id, promptId: prompt.id, choice: 'explain' });
    assert.equal(reply.outcome, 'next');
    assert.equal(reply.state, 'blocked');
    assert.notEqual(reply.prompt.id, prompt.id);
    assert.match(reply.prompt.text, /removes the scratch folder/);
    pane.dispose();
    await call('pane.kill', { target: pane.id });
  });
});

describe("OpenCode's permission dialog, whose selection shows by colour only", () => {
  const session = useDaemon();
  const { call, callError, agentUntil } = session;

  it('is answered by choice id from the button selected when it opens, and loses its keys once a key moves the selection', async () => {
    const log = join(session.daemon.dir, 'opencode-keys.log');
    const pane = await call('pane.spawn', {
      command: process.execPath,
      args: [fileURLToPath(new URL('../../fixtures/agents/fake-opencode.mjs', import.meta.url))],
      cwd: session.daemon.dir,
      env: { CORRAL_AGENT: 'opencode', FAKE_KEYLOG: log },
    });
    const keys = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as string) : []);
    const dialog = async () => (await agentUntil(pane.id, (i) => i.state === 'blocked' && i.prompt?.choices.length === 3, 'the permission dialog')).prompt;

    const prompt = await dialog();
    assert.deepEqual(
      prompt.choices.map((c: any) => [c.id, c.keys, c.default]),
      [
        ['allow-once', ['Enter'], true],
        ['allow-always', ['Right', 'Enter'], false],
        ['reject', ['Right', 'Right', 'Enter'], false],
      ],
    );
    const reply = await call('agent.answer', { target: pane.id, promptId: prompt.id, choice: 'allow-always' });
    assert.equal(reply.outcome, 'left');
    await session.screenContains(pane.id, 'Allowed always.');
    assert.deepEqual(keys(), ['\x1b[C', '\r']);

    await agentUntil(pane.id, (i) => i.state !== 'blocked', 'out of blocked');
    await call('pane.send', { target: pane.id, text: 'p' }); // the dialog again
    const again = await dialog();
    assert.notEqual(again.id, prompt.id);
    await call('pane.send', { target: pane.id, keys: ['Right'] }); // typed past Corral: the selection moved
    const moved = (await agentUntil(pane.id, (i) => i.prompt !== undefined && i.prompt.id !== again.id, 'the dialog with its selection unknown')).prompt;
    assert.deepEqual(moved.choices.map((c: any) => c.keys), [[], [], []]);
    assert.match(moved.note, /answer with keys/);
    const refused = await callError('agent.answer', { target: pane.id, promptId: moved.id, choice: 'allow-once' });
    assert.equal(refused.data.code, 'invalid_params');
    assert.equal((await call('agent.answer', { target: pane.id, promptId: moved.id, keys: ['Enter'] })).outcome, 'left');
    const taken = async () => ((await call('pane.read', { target: pane.id })).text as string).match(/Allowed always\./g)?.length ?? 0;
    await waitFor(async () => (await taken()) === 2, { what: 'Enter taking Allow always, where the selection was moved' });
    await call('pane.kill', { target: pane.id });
  });
});
