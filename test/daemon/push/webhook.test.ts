// [notify.webhook] from a real daemon to a real loopback HTTP receiver, its answer links served by a
// real `corral web`, fake agents blocking on real PTYs: each item posted once and signed; a link's GET
// types nothing; its confirmation page's POST answers once, and only the prompt it was sent for.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DaemonConnection } from '../../../src/cli/with-daemon.ts';
import { AGENT_GET, AGENT_LIST, AGENT_WAIT, INBOX_LIST, PANE_SEND, PANE_SPAWN } from '../../../src/protocol/methods/index.ts';
import type { MethodDecl } from '../../../src/protocol/method.ts';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { waitFor } from '../../../harness/wait.ts';
import { httpRequest, startWeb, type WebProcess } from '../../../harness/web.ts';
import { killDaemon } from '../../helpers/restart.ts';
import { FAKE_CLAUDE } from '../../helpers/session.ts';
import { LoopbackReceiver } from '../../helpers/loopback-receiver.ts';

const SECRET = 'a-webhook-secret-of-this-test';
const keysOf = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

interface Posted {
  headers: IncomingHttpHeaders;
  body: string;
  json: { kind: string; item: number; pane: string; state: string; body: string; url: string; promptId: string | null; actions: { action: string; title: string; token: string; url: string }[] };
}

/** The posts the receiver took (its first answer is 503, so that the daemon's retry is taken too). */
const taken = (receiver: LoopbackReceiver): Posted[] => receiver.posts.filter((post) => post.status < 300).map((post) => ({ ...post, json: JSON.parse(post.body) }));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('[notify.webhook]', () => {
  let dir: string;
  let receiver: LoopbackReceiver;
  let daemon: DaemonProcess;
  let client: DaemonConnection;
  let web: WebProcess;

  const call = <P, R>(method: MethodDecl<P, R>, params: P) => client.call(method, params);
  const startTheDaemon = async () => {
    client?.dispose();
    daemon = await startDaemon({ dir });
    client = await DaemonConnection.connect(daemon.socket);
  };
  const agent = async (name: string, keylog: string) => {
    const pane = await call(PANE_SPAWN, { command: process.execPath, args: [FAKE_CLAUDE], name, cwd: dir, env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '300', FAKE_KEYLOG: keylog } });
    // A hang guard, not a figure: a loaded machine can take seconds to start a node process.
    await call(AGENT_WAIT, { targets: [name], until: ['idle'], timeoutMs: 60_000 });
    return pane.id;
  };
  /** Blocks the agent on its permission form and returns the post of that item. */
  const blockedPost = async (pane: string): Promise<Posted> => {
    const newest = Math.max(0, ...taken(receiver).map((post) => post.json.item));
    await call(PANE_SEND, { target: pane, text: 'perm', keys: ['Enter'] });
    return (await waitFor(() => taken(receiver).find((post) => post.json.kind === 'attention' && post.json.pane === pane && post.json.state === 'blocked' && post.json.item > newest), { what: `the post of ${pane} blocked`, timeoutMs: 30_000 }))!;
  };
  const postForm = (fields: Record<string, string>, origin: string | null = web.origin) =>
    httpRequest(web.origin, '/answer', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin === null ? {} : { origin }) }, body: new URLSearchParams(fields).toString() });
  const formOf = (html: string) => Object.fromEntries([...html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map(([, name, value]) => [name!, value!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))]));
  const outcomeOf = (html: string) => /data-outcome="(\w+)"/.exec(html)?.[1];
  const stillBlocked = async (pane: string) => (await call(AGENT_GET, { target: pane })).state === 'blocked';

  before(async () => {
    dir = makeTempDir();
    receiver = await LoopbackReceiver.start();
    receiver.replies.push(503);
    const port = await freePort();
    mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
    writeFileSync(
      join(dir, 'config', 'corral', 'config.toml'),
      `[notify.push]\nttl_s = 600\n[notify.webhook]\nurl = "${receiver.origin}/hook"\nsecret = "${SECRET}"\npublic_url = "http://127.0.0.1:${port}/"\n`,
    );
    await startTheDaemon();
    web = await startWeb(daemon, ['--port', String(port)]);
  });
  after(async () => {
    client?.dispose();
    await web?.dispose();
    await daemon?.dispose();
    await receiver?.close();
  });

  it('posts a blocked agent once, signed, with a link per safe choice; GET types nothing, the confirmation answers once', async () => {
    const keylog = join(dir, 'a.keys');
    const pane = await agent('alpha', keylog);
    const post = await blockedPost(pane);
    const { items } = await call(INBOX_LIST, {});
    const item = items.find((one) => one.pane.id === pane)!;
    // Signed as docs/web.md says to check it: HMAC-SHA256 of "TIMESTAMP.BODY".
    const timestamp = String(post.headers['x-corral-timestamp']);
    assert.equal(post.headers['x-corral-signature'], `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${post.body}`).digest('hex')}`);
    assert.ok(Math.abs(Date.now() / 1000 - Number(timestamp)) < 600);
    assert.equal(post.headers['x-corral-delivery'], `item-${item.id}`);
    assert.equal(post.headers['content-type'], 'application/json');
    assert.deepEqual([post.json.kind, post.json.item, post.json.promptId], ['attention', item.id, item.prompt!.id]);
    assert.match(post.json.body, /rm -rf \/tmp\/fake-agent-scratch/);
    assert.equal(post.json.url, `${web.origin}/#/agent/${encodeURIComponent(pane)}`);
    assert.deepEqual(post.json.actions.map((action) => action.action), ['yes', 'no-and-tell-claude-what-to-do'], 'the safe choices only');
    const [yes] = post.json.actions;
    assert.ok(yes!.url.startsWith(`${web.origin}/answer?`));

    // A link preview fetches the link: a page with the question and a button, nothing typed.
    const typed = keysOf(keylog).length;
    const link = new URL(yes!.url);
    const page = await httpRequest(web.origin, `${link.pathname}${link.search}`);
    const again = await httpRequest(web.origin, `${link.pathname}${link.search}`);
    assert.equal(page.status, 200);
    assert.equal(again.status, 200, 'fetching it twice spends nothing');
    assert.match(page.body, /claude in alpha on /);
    assert.match(page.body, /rm -rf \/tmp\/fake-agent-scratch/);
    assert.match(page.body, /<form method="post" action="\/answer">/);
    assert.match(page.body, /Answer “Yes”/);
    assert.equal(page.headers['referrer-policy'], 'same-origin');
    assert.match(String(page.headers['content-security-policy']), /form-action 'self'/);
    assert.doesNotMatch(page.body, /<script/);
    assert.equal(keysOf(keylog).length, typed);
    assert.ok(await stillBlocked(pane));

    // The form, from another origin or none: refused, nothing typed.
    const form = formOf(page.body);
    assert.deepEqual(Object.keys(form).sort(), ['choice', 'pane', 'token']);
    assert.equal((await postForm(form, 'http://evil.example')).status, 403);
    assert.equal((await postForm(form, null)).status, 403);
    assert.equal(keysOf(keylog).length, typed);

    const answered = await postForm(form);
    assert.deepEqual([answered.status, outcomeOf(answered.body)], [200, 'answered']);
    assert.match(answered.body, /Answered/);
    await waitFor(async () => !(await stillBlocked(pane)), { what: 'the agent unblocked', timeoutMs: 30_000 });
    const reused = await postForm(form);
    assert.deepEqual([reused.status, outcomeOf(reused.body)], [409, 'used']);
    assert.match(reused.body, /used already/);
    const reopened = await httpRequest(web.origin, `${link.pathname}${link.search}`);
    assert.deepEqual([reopened.status, outcomeOf(reopened.body)], [409, 'used']);
    assert.equal(taken(receiver).filter((one) => one.json.item === item.id && one.json.kind === 'attention').length, 1, 'posted once, after the 503 retried');
    // Answered: one quiet follow-up of the same item, with no links, under a delivery id of its own.
    const followUp = (await waitFor(() => taken(receiver).find((one) => one.json.item === item.id && one.json.kind === 'resolved'), { what: 'the follow-up of the answered item', timeoutMs: 30_000 }))!;
    assert.deepEqual([followUp.json.body, followUp.json.actions, followUp.headers['x-corral-delivery']], ['answered', [], `item-${item.id}-resolved`]);
    const forged = await httpRequest(web.origin, `/answer?${new URLSearchParams({ token: 'x'.repeat(43), choice: 'yes', pane })}`);
    assert.deepEqual([forged.status, outcomeOf(forged.body)], [410, 'expired']);
    const partial = await httpRequest(web.origin, '/answer?token=abc');
    assert.deepEqual([partial.status, outcomeOf(partial.body)], [400, 'invalid']);
  });

  it('refuses the link of a prompt that changed, typing nothing', async () => {
    const keylog = join(dir, 'b.keys');
    const pane = await agent('bravo', keylog);
    const post = await blockedPost(pane);
    const [yes] = post.json.actions;
    // Answered at its terminal: the link's prompt left the pane.
    await call(PANE_SEND, { target: pane, keys: ['2'] });
    await waitFor(async () => !(await stillBlocked(pane)), { what: 'bravo answered at the terminal', timeoutMs: 30_000 });
    await blockedPost(pane);
    const typed = keysOf(keylog).length;
    const link = new URL(yes!.url);
    const page = await httpRequest(web.origin, `${link.pathname}${link.search}`);
    assert.deepEqual([page.status, outcomeOf(page.body)], [409, 'prompt_changed']);
    assert.match(page.body, /the question changed since this link was sent/);
    assert.doesNotMatch(page.body, /<form/);
    const form = { token: link.searchParams.get('token')!, choice: link.searchParams.get('choice')!, pane: link.searchParams.get('pane')! };
    const refused = await postForm(form);
    assert.deepEqual([refused.status, outcomeOf(refused.body)], [409, 'prompt_changed']);
    assert.equal(keysOf(keylog).length, typed);
    assert.ok(await stillBlocked(pane), 'blocked on its new prompt, untouched');
  });

  it('posts nothing again for the same item after a daemon restart', async () => {
    const waiting = (await call(INBOX_LIST, {})).items.filter((item) => item.state === 'blocked');
    assert.ok(waiting.length >= 1, 'an item still waits in the inbox');
    await killDaemon(daemon);
    await startTheDaemon();
    await waitFor(async () => (await call(AGENT_LIST, {})).agents.some((one) => one.state === 'blocked'), { what: 'the agents read again', timeoutMs: 60_000 });
    // A new item after the restart: once its post arrives, whatever the new daemon posted at start arrived before it.
    const pane = await agent('charlie', join(dir, 'c.keys'));
    await blockedPost(pane);
    for (const item of waiting) assert.equal(taken(receiver).filter((post) => post.json.item === item.id && post.json.kind === 'attention').length, 1, `item ${item.id} posted once`);
  });
});
