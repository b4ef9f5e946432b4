import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DaemonConnection } from '../../../src/cli/with-daemon.ts';
import { EVENT } from '../../../src/protocol/notifications.ts';
import { EVENTS_SUBSCRIBE, type CorralEvent } from '../../../src/protocol/methods/events.ts';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

/**
 * A blocked agent's prompt as data through a real daemon and the fake agent on a real PTY: the
 * prompt on agent.get and in the state event, answers bound to their prompt id, typed once.
 */
describe('the prompt of a blocked agent, and answers bound to it', () => {
  const session = useDaemon();
  const { call, callError, agentUntil } = session;
  let logs = 0;

  /** The fake agent with a key log: every key it read, in order. */
  const keyLogged = async () => {
    const log = join(session.daemon.dir, `keys-${(logs += 1)}.log`);
    const id = await session.fakeAgent(300, { env: { FAKE_KEYLOG: log } });
    const keys = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as string) : []);
    return { id, keys };
  };
  /**
   * Blocked, with the dialog drawn to its last line (its footer's last choice): a dialog that reaches the
   * screen in pieces reads as a growing prompt, its id kept, until the whole of it is there.
   */
  const blockedOn = (id: string, what: string, last = 'explain') =>
    agentUntil(id, (i) => i.state === 'blocked' && i.prompt?.choices.some((c: any) => c.id === last), what);
  /** Every key sent before it has reached the program once the marker key has: the PTY keeps order. */
  const settle = async (id: string, keys: () => string[], marker: string) => {
    await call('pane.send', { target: id, text: marker });
    await waitFor(() => keys().includes(marker), { what: `the marker ${marker} in the key log` });
  };

  it('reads the permission form as a prompt with its numbered choices and footer keys', async () => {
    const id = await session.fakeAgent(300);
    await call('agent.prompt', { target: id, text: 'perm' });
    const info = await blockedOn(id, 'the permission form');
    assert.equal(info.prompt.kind, 'permission');
    assert.equal(info.prompt.text, 'Bash command\nrm -rf /tmp/fake-agent-scratch\nRemove the scratch folder\nDo you want to proceed?');
    assert.deepEqual(
      info.prompt.choices.map((c: any) => [c.id, c.keys, c.default]),
      [
        ['yes', ['1'], true],
        ['no-and-tell-claude-what-to-do', ['Escape'], false], // its `(esc)`; the footer's `Esc to cancel` is the same key
        ['amend', ['Tab'], false],
        ['explain', ['C-e'], false],
      ],
    );
    const explained = await call('agent.explain', { target: id });
    assert.deepEqual(explained.prompt, info.prompt);
    const listed = (await call('agent.list', {})).agents.find((a: any) => a.id === id);
    assert.deepEqual(listed.prompt, info.prompt);
    const refused = await callError('agent.prompt', { target: id, text: 'hello' });
    assert.equal(refused.data.code, 'agent_blocked');
    assert.deepEqual(refused.data.prompt, info.prompt, 'the refusal carries the prompt a client can show');
    await call('pane.kill', { target: id });
  });

  it('refuses an answer naming a prompt no longer on the screen, and types nothing', async () => {
    const { id, keys } = await keyLogged();
    await call('agent.prompt', { target: id, text: 'perm' });
    const first = (await blockedOn(id, 'the first permission form')).prompt;
    const answered = await call('agent.answer', { target: id, promptId: first.id, choice: 'no-and-tell-claude-what-to-do' });
    assert.notEqual(answered.state, 'blocked');
    await call('agent.prompt', { target: id, text: 'perm' });
    const second = (await blockedOn(id, 'the second permission form')).prompt;
    assert.notEqual(second.id, first.id, 'the same dialog shown anew is a new prompt');
    assert.equal(second.text, first.text);

    const typedBefore = keys().length;
    const stale = await callError('agent.answer', { target: id, promptId: first.id, choice: 'yes' });
    assert.equal(stale.data.code, 'prompt_changed');
    assert.deepEqual(stale.data.prompt, second, 'the error carries the prompt on the screen now');
    await settle(id, keys, 'z');
    assert.deepEqual(keys().slice(typedBefore), ['z'], 'nothing was typed for the stale answer');
    assert.equal((await call('agent.get', { target: id })).state, 'blocked');
    await call('pane.kill', { target: id });
  });

  it('gives a dialog that changes while the agent stays blocked a new id, tells subscribers, and refuses the old id', async () => {
    const { id, keys } = await keyLogged();
    const subscriber = await DaemonConnection.connect(session.daemon.socket);
    const events: CorralEvent[] = [];
    subscriber.onNotification(EVENT, (event) => events.push(event as CorralEvent));
    await subscriber.call(EVENTS_SUBSCRIBE, { filter: `pane:${id}` });
    await call('agent.prompt', { target: id, text: 'perm' });
    const first = (await blockedOn(id, 'the permission form')).prompt;
    await call('pane.send', { target: id, keys: ['C-e'] }); // the fake explains the command: a new dialog
    const changed = () => events.find((e) => e.kind === 'agent.promptChanged' && /removes the scratch folder/.test((e.data as any).prompt.text));
    await waitFor(() => changed() !== undefined, { what: 'agent.promptChanged with the explained command' });
    const second = (changed()!.data as any).prompt;
    assert.notEqual(second.id, first.id);
    await agentUntil(id, (i) => i.prompt?.id !== first.id && i.prompt?.choices.some((c: any) => c.id === 'explain'), 'the explained form drawn whole');
    const typedBefore = keys().length;
    assert.equal((await callError('agent.answer', { target: id, promptId: first.id, choice: 'yes' })).data.code, 'prompt_changed');
    await settle(id, keys, 'z');
    assert.deepEqual(keys().slice(typedBefore), ['z']);
    subscriber.dispose();
    await call('pane.kill', { target: id });
  });

  it('keeps the id of a dialog that reaches the screen in pieces, tells subscribers of the rest, and takes an answer to it', async () => {
    const rest = join(session.daemon.dir, 'dialog-rest');
    const log = join(session.daemon.dir, `keys-${(logs += 1)}.log`);
    const id = await session.fakeAgent(300, { env: { FAKE_DIALOG_REST: rest, FAKE_KEYLOG: log } });
    const subscriber = await DaemonConnection.connect(session.daemon.socket);
    const events: CorralEvent[] = [];
    subscriber.onNotification(EVENT, (event) => events.push(event as CorralEvent));
    await subscriber.call(EVENTS_SUBSCRIBE, { filter: `pane:${id}` });
    await call('agent.prompt', { target: id, text: 'perm' });
    // The form without its footer: its two numbered choices, not yet the footer's keys.
    const piece = (await agentUntil(id, (i) => i.state === 'blocked' && i.prompt?.choices.length === 2, 'the form without its footer')).prompt;
    writeFileSync(rest, '');
    const whole = (await blockedOn(id, 'the rest of the form')).prompt;
    assert.equal(whole.id, piece.id, 'the same dialog, drawn further');
    assert.deepEqual([piece.complete, whole.complete, whole.incomplete], [false, true, null], 'complete once its footer is drawn');
    assert.match(piece.incomplete, /its footer is not drawn/);
    assert.deepEqual(whole.choices.slice(0, 2), piece.choices);
    assert.deepEqual(whole.choices.map((c: any) => c.id).slice(2), ['amend', 'explain']);
    const told = () => events.find((e) => e.kind === 'agent.promptChanged' && (e.data as any).prompt.choices.length === 4);
    await waitFor(() => told() !== undefined, { what: 'agent.promptChanged with the whole form' });
    assert.deepEqual((told()!.data as any).prompt, whole);
    // An answer to the id first read lands: it is the dialog on the screen.
    const answered = await call('agent.answer', { target: id, promptId: piece.id, choice: 'yes' });
    assert.notEqual(answered.state, 'blocked');
    assert.ok(readFileSync(log, 'utf8').includes('"1"'), 'its key typed');
    subscriber.dispose();
    await call('pane.kill', { target: id });
  });

  it('types a repeated answer once', async () => {
    const { id, keys } = await keyLogged();
    await call('agent.prompt', { target: id, text: 'perm' });
    const prompt = (await blockedOn(id, 'the permission form')).prompt;
    const typedBefore = keys().length;
    const request = { target: id, promptId: prompt.id, choice: 'yes' };
    const [first, again] = await Promise.all([call('agent.answer', request), call('agent.answer', request)]);
    assert.notEqual(first.state, 'blocked');
    assert.equal(again.repeated, true);
    assert.equal(again.state, first.state);
    const late = await call('agent.answer', request); // a retry after the reply was lost
    assert.equal(late.repeated, true);
    await agentUntil(id, (i) => i.state === 'idle' || i.state === 'done', 'idle after the command ran');
    await settle(id, keys, 'z');
    assert.deepEqual(keys().slice(typedBefore), ['1', 'z'], 'the answer was typed once');
    await call('pane.kill', { target: id });
  });

  it("answers the footer-keys dialog by its choice: shift+Tab, which the dialog takes where a digit is ignored", async () => {
    const { id, keys } = await keyLogged();
    await call('agent.prompt', { target: id, text: 'automode' });
    const info = await blockedOn(id, 'the auto mode dialog', 'cancel');
    // The dialog on screen decides blocked (a visible prompt wins over the agent's own report).
    assert.equal(info.source, 'screen:auto_mode_check_dialog');
    const { prompt } = info;
    assert.equal(prompt.kind, 'permission');
    assert.equal(prompt.text.split('\n')[0], "Auto mode can't check actions in this session");
    assert.deepEqual(
      prompt.choices.map((c: any) => [c.id, c.label, c.keys, c.default]),
      [
        ['stay-in-auto-mode', 'stay in auto mode', ['Enter'], true],
        ['leave-for-accept-edits-mode-and-stop', 'leave for accept edits mode and stop', ['BTab'], false],
        ['cancel', 'cancel', ['Escape'], false],
      ],
    );
    const typedBefore = keys().length;
    const answered = await call('agent.answer', { target: id, promptId: prompt.id, choice: 'leave-for-accept-edits-mode-and-stop' });
    assert.notEqual(answered.state, 'blocked');
    await session.screenContains(id, 'Left auto mode.');
    assert.deepEqual(keys().slice(typedBefore), ['\x1b[Z']);
    await call('pane.kill', { target: id });
  });

  it('sends a subscriber the prompt in the same event as the blocked state', async () => {
    const id = await session.fakeAgent(300);
    const subscriber = await DaemonConnection.connect(session.daemon.socket);
    const events: CorralEvent[] = [];
    subscriber.onNotification(EVENT, (event) => events.push(event as CorralEvent));
    await subscriber.call(EVENTS_SUBSCRIBE, { filter: `pane:${id}` });
    await call('agent.prompt', { target: id, text: 'perm' });
    const blocked = () => events.find((e) => e.kind === 'agent.stateChanged' && (e.data as any).to === 'blocked');
    await waitFor(() => blocked() !== undefined, { what: 'agent.stateChanged to blocked' });
    const data = blocked()!.data as any;
    assert.equal(data.prompt?.kind, 'permission', JSON.stringify(data));
    assert.match(data.prompt.text, /^Bash command\n/);
    // A form drawn in pieces may grow after the state event: each later dialog comes as agent.promptChanged,
    // so the newest prompt of the stream is the one agent.get shows.
    const info = await blockedOn(id, 'the whole form');
    const newest = () => [...events].reverse().find((e) => (e.kind === 'agent.promptChanged' || e.kind === 'agent.stateChanged') && (e.data as any).prompt);
    await waitFor(() => (newest()!.data as any).prompt.id === info.prompt.id, { what: 'the stream to reach the prompt agent.get shows' });
    assert.deepEqual((newest()!.data as any).prompt, info.prompt);
    // The inbox item of the blocked turn carries the same prompt (docs/events.md, "The attention inbox").
    const item = await waitFor(async () => (await call('inbox.list', {})).items.find((i: any) => i.pane.id === id && i.prompt?.id === info.prompt.id), { what: "the inbox item with the form's prompt" });
    assert.deepEqual(item.prompt, info.prompt);
    subscriber.dispose();
    await call('pane.kill', { target: id });
  });
});
