// What a device receives, set through `corral notify push set`: quiet hours hold its pushes (another
// device's arrive meanwhile) and turning them off sends what they held, once; a workspace filter keeps
// other workspaces' items away.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INBOX_LIST, PANE_SEND, PUSH_KEY, PUSH_LIST, PUSH_SUBSCRIBE, PUSH_TEST } from '../../../src/protocol/methods/index.ts';
import type { TestSubscription } from '../../../harness/push-service.ts';
import { testEnv } from '../../../harness/daemon.ts';
import { waitFor } from '../../../harness/wait.ts';
import { runCli } from '../../helpers/cli.ts';
import { PushLab, type Pushed } from './push-helpers.ts';

/** Quiet hours from an hour ago to an hour ahead, local time: now is inside them. */
function quietNow(): string {
  const hhmm = (date: Date) => `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
  return `${hhmm(new Date(Date.now() - 3600_000))}-${hhmm(new Date(Date.now() + 3600_000))}`;
}

describe('push device settings', () => {
  let lab: PushLab;
  let quiet: { device: TestSubscription; id: string };
  let elsewhere: { device: TestSubscription; id: string };
  const subscribe = async (label: string) => {
    const { publicKey } = await lab.call(PUSH_KEY, {});
    const device = await lab.service.subscribe(publicKey);
    const { device: added } = await lab.call(PUSH_SUBSCRIBE, { subscription: { endpoint: device.endpoint, expirationTime: null, keys: device.keys }, label });
    return { device, id: added.id };
  };
  const received = (device: TestSubscription) => lab.service.messages(device) as Pushed[];
  const cli = (args: string[]) => runCli(['--socket', lab.daemon.socket, 'notify', 'push', ...args], { env: { ...process.env, ...testEnv(lab.dir) } });

  before(async () => {
    lab = await PushLab.start();
    quiet = await subscribe('asleep');
    elsewhere = await subscribe('other workspace');
  });
  after(() => lab.dispose());

  it('holds a quiet device\'s pushes and sends them, once, when its quiet hours are off; keeps other workspaces away', async () => {
    const set = await cli(['set', quiet.id, '--quiet', quietNow(), '--receive', 'blocked,done']);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /receives blocked,done of every workspace, quiet \d\d:\d\d-\d\d:\d\d/);
    assert.equal((await cli(['set', elsewhere.id, '--workspace', 'nowhere'])).code, 0);
    assert.equal((await cli(['set', quiet.id, '--quiet', '25:00-01:00'])).code, 2, 'a time that is none');
    const listed = await cli(['list']);
    assert.match(listed.stdout, /WORKSPACES\s+QUIET/);
    assert.match(listed.stdout, new RegExp(`${elsewhere.id}\\s+other workspace\\s+blocked,done,failed\\s+nowhere\\s+default`));

    const pane = await lab.agent('sleeper');
    await lab.call(PANE_SEND, { target: pane, text: 'perm', keys: ['Enter'] });
    // The device that is awake gets it; its push and the quiet device's would have been queued together.
    const push = (await waitFor(() => lab.pushed().find((one) => one.kind === 'attention' && one.pane === pane && one.state === 'blocked'), { what: 'the awake device push', timeoutMs: 30_000 }))!;
    // A test push queued after it reaches the quiet device: the item did not.
    assert.equal((await lab.call(PUSH_TEST, { id: quiet.id })).results[0]!.status, 201);
    await waitFor(() => received(quiet.device).some((one) => one.kind === 'test'), { what: 'the test push' });
    assert.deepEqual(received(quiet.device).filter((one) => one.kind === 'attention'), [], 'held during quiet hours');
    assert.equal((await lab.call(INBOX_LIST, {})).items.some((item) => item.id === push.item), true, 'still waiting in the inbox');

    const off = await cli(['set', quiet.id, '--quiet', 'off']);
    assert.match(off.stdout, /no quiet hours/);
    const held = (await waitFor(() => received(quiet.device).find((one) => one.kind === 'attention' && one.item === push.item), { what: 'the held push', timeoutMs: 30_000 }))!;
    assert.equal(held.promptId, push.promptId);
    assert.equal(held.actions.length, 2, 'with its answer buttons, minted now');
    // Another change offers the inbox again: nothing is pushed twice.
    assert.equal((await cli(['set', quiet.id, '--label', 'awake'])).code, 0);
    assert.equal((await lab.call(PUSH_TEST, { id: quiet.id })).results[0]!.status, 201);
    await waitFor(() => received(quiet.device).filter((one) => one.kind === 'test').length === 2, { what: 'the second test push' });
    assert.equal(received(quiet.device).filter((one) => one.kind === 'attention').length, 1);
    assert.deepEqual(received(elsewhere.device).filter((one) => one.kind === 'attention'), [], 'not its workspace');
    const { devices } = await lab.call(PUSH_LIST, {});
    assert.deepEqual(devices.find((device) => device.id === quiet.id)!.quietHours, 'off');
    assert.deepEqual(devices.find((device) => device.id === elsewhere.id)!.workspaces, ['nowhere']);
  });
});
