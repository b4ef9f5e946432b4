// The push channel when a device's quiet hours end: what they held goes then, once, if it is still in
// the inbox; an item acknowledged meanwhile never goes. The channel's clock is set a moment before
// 07:00 local time and runs at the real pace, so the end comes within a second; the device store, the
// sender, `web-push` and the local push service are the real ones.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { InboxItem } from '../../../src/protocol/methods/inbox.ts';
import type { AgentPrompt } from '../../../src/protocol/prompt.ts';
import { safeChoices } from '../../../src/protocol/prompt.ts';
import { Emitter } from '../../../src/base/emitter.ts';
import { AnswerTokens } from '../../../src/daemon/push/answer-tokens.ts';
import { DeviceStore } from '../../../src/daemon/push/device-store.ts';
import { PushChannel } from '../../../src/daemon/push/push-channel.ts';
import { PushSender } from '../../../src/daemon/push/push-sender.ts';
import type { EventHub } from '../../../src/daemon/events/event-hub.ts';
import { createLogger } from '../../../src/daemon/logger.ts';
import { makeTempDir } from '../../../harness/daemon.ts';
import { LocalPushService, type TestSubscription } from '../../../harness/push-service.ts';
import { waitFor } from '../../../harness/wait.ts';
import webpush from 'web-push';

const log = createLogger('silent');
const prompt = { id: 'p1', kind: 'permission', text: 'Bash command\n  rm -rf /tmp/x\nDo you want to proceed?', complete: true, choices: [] } as unknown as AgentPrompt;
const item = (id: number, pane: string): InboxItem => ({ id, pane: { id: pane, name: null }, agent: 'claude', state: 'blocked', seq: id, cursor: id, ts: 0, title: null, message: '', prompt });

describe('quiet hours ending', () => {
  let service: LocalPushService;
  let device: TestSubscription;
  let channel: PushChannel;
  let sender: PushSender;
  const inbox: InboxItem[] = [];
  const added = new Emitter<InboxItem>(() => undefined);
  before(async () => {
    service = await LocalPushService.start();
    const keys = webpush.generateVAPIDKeys();
    device = await service.subscribe(keys.publicKey);
    const devices = new DeviceStore(join(makeTempDir(), 'devices.json'), log);
    devices.put({ id: 'dquiet', subscription: { endpoint: device.endpoint, expirationTime: null, keys: device.keys }, states: ['blocked', 'done'], quietHours: '22:00-07:00', label: null, createdAt: 0, fromItem: 0, pushed: [], sent: 0, lastStatus: null });
    sender = new PushSender(() => keys, 'mailto:quiet@example.org', log);
    // 06:59:59.5 local time, running on at the real pace.
    const base = new Date(2026, 11, 7, 6, 59, 59, 500).getTime();
    const start = Date.now();
    const hub = { onPublish: () => ({ dispose: () => undefined }) } as unknown as EventHub;
    channel = new PushChannel({
      attention: { onAdded: (listener) => added.event(listener), list: () => inbox },
      hub,
      devices,
      sender,
      tokens: new AnswerTokens(),
      buttons: safeChoices,
      host: 'test-host',
      ttlSeconds: 600,
      quietHours: null,
      log,
      now: () => base + (Date.now() - start),
    });
  });
  after(async () => {
    channel.dispose();
    sender.dispose();
    await service.close();
  });

  it('pushes what is still waiting when they end, and not what was acknowledged meanwhile', async () => {
    const waiting = item(1, 'w1:p1');
    const answered = item(2, 'w1:p2');
    inbox.push(waiting, answered);
    added.fire(waiting);
    added.fire(answered);
    assert.equal(service.requests.length, 0, 'held: nothing sent at 06:59');
    inbox.splice(inbox.indexOf(answered), 1);
    const pushed = (await waitFor(() => (service.messages(device).length > 0 ? service.messages(device) : null), { what: 'the push at 07:00' })) as { item: number }[];
    assert.deepEqual(pushed.map((one) => one.item), [1]);
  });
});
