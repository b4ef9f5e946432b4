// `corral notify webhook test` through the real CLI, a real daemon and a real loopback receiver: one
// test delivery, signed as the real ones, with no answer links; what the receiver answered in words,
// and exit 1 with webhook_failed when it did not take it.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { runCli } from '../../helpers/cli.ts';
import { LoopbackReceiver } from '../../helpers/loopback-receiver.ts';

const SECRET = 'the-secret-of-this-test';

describe('corral notify webhook test', () => {
  let receiver: LoopbackReceiver;
  let daemon: DaemonProcess;
  const cli = (...args: string[]) => runCli(['--socket', daemon.socket, 'notify', 'webhook', 'test', ...args]);

  before(async () => {
    receiver = await LoopbackReceiver.start();
    const dir = makeTempDir();
    mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
    // The receiver's path stands for the secret part of a chat service's hook URL: never shown.
    writeFileSync(
      join(dir, 'config', 'corral', 'config.toml'),
      `[notify.webhook]\nurl = "${receiver.origin}/hooks/T0SECRET"\nsecret = "${SECRET}"\npublic_url = "https://corral.example.net/"\n`,
    );
    daemon = await startDaemon({ dir });
  });
  after(async () => {
    await daemon?.dispose();
    await receiver?.close();
  });

  it('posts one test delivery, signed as the real ones, with no answer links, and says the receiver took it', async () => {
    const run = await cli();
    assert.equal(run.code, 0, run.stderr);
    assert.equal(receiver.posts.length, 1);
    const [post] = receiver.posts;
    const delivery = post!.headers['x-corral-delivery'] as string;
    assert.match(delivery, /^test-\d+$/);
    assert.equal(run.stdout, `${receiver.origin} took the test delivery ${delivery}: 204 No Content (signed)\n`);
    assert.doesNotMatch(run.stdout, /T0SECRET/, "the receiver's path is not shown");
    const timestamp = post!.headers['x-corral-timestamp'] as string;
    const expected = `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${post!.body}`).digest('hex')}`;
    assert.equal(post!.headers['x-corral-signature'], expected, 'signed over TIMESTAMP.BODY as every delivery');
    const payload = JSON.parse(post!.body);
    assert.deepEqual([payload.kind, payload.item, payload.pane, payload.promptId, payload.actions], ['test', null, null, null, []]);
    assert.equal(payload.url, 'https://corral.example.net/');

    const json = await cli('--json');
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), { receiver: receiver.origin, delivery: receiver.posts[1]!.headers['x-corral-delivery'], status: 204, signed: true });
  });

  it("a receiver that refuses: exit 1 with webhook_failed, its status in words and what to check, posted once and not tried again", async () => {
    receiver.reply = 503;
    const before = receiver.posts.length;
    const busy = await cli();
    assert.equal(busy.code, 1);
    assert.equal(busy.stdout, '');
    assert.match(busy.stderr, new RegExp(`^corral: the test delivery test-\\d+ was not taken: ${receiver.origin} answered 503 Service Unavailable: the receiver is busy or failing; real deliveries are tried again up to 5 times, this test once \\[webhook_failed\\]\\n$`));
    assert.equal(receiver.posts.length, before + 1, 'one try: the daemon answered after it');

    receiver.reply = 401;
    const refused = await cli('--json');
    assert.equal(refused.code, 1);
    const { error } = JSON.parse(refused.stderr);
    assert.equal(error.code, 'webhook_failed');
    assert.match(error.message, /answered 401 Unauthorized: if it checks X-Corral-Signature, give it the secret of \[notify\.webhook\]/);
    receiver.reply = 204;
  });
});
