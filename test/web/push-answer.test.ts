// POST /push/answer on a real `corral web` before a real daemon: a notification button's token answers
// its prompt once, from the page's own origin only, with no session; every other request types nothing.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AGENT_GET, PANE_SEND } from '../../src/protocol/methods/index.ts';
import { waitFor } from '../../harness/wait.ts';
import { httpRequest, startWeb, type WebProcess } from '../../harness/web.ts';
import { PushLab, type Pushed } from '../daemon/push/push-helpers.ts';

const keysOf = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

describe('POST /push/answer', () => {
  let lab: PushLab;
  let web: WebProcess;
  before(async () => {
    lab = await PushLab.start();
    web = await startWeb(lab.daemon);
  });
  after(async () => {
    await web?.dispose();
    await lab?.dispose();
  });

  const blocked = async (pane: string): Promise<Pushed> => {
    const newest = Math.max(0, ...lab.pushed().map((push) => push.item ?? 0));
    await lab.call(PANE_SEND, { target: pane, text: 'perm', keys: ['Enter'] });
    return waitFor(() => lab.pushed().find((push) => push.kind === 'attention' && push.pane === pane && push.state === 'blocked' && push.item! > newest), { what: 'the push', timeoutMs: 30_000 }) as Promise<Pushed>;
  };
  const post = (body: unknown, origin: string | null = web.origin) =>
    httpRequest(web.origin, '/push/answer', { method: 'POST', headers: { 'content-type': 'application/json', ...(origin === null ? {} : { origin }) }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('types nothing for a foreign or missing Origin, a forged token, or a token for another pane', async () => {
    const aKeys = join(lab.dir, 'web-a.keys');
    const bKeys = join(lab.dir, 'web-b.keys');
    const a = await lab.agent('web-a', aKeys);
    const b = await lab.agent('web-b', bKeys);
    const push = await blocked(a);
    await blocked(b);
    const [yes] = push.actions;
    const typed = [keysOf(aKeys).length, keysOf(bKeys).length];
    const request = { token: yes!.token, choice: yes!.action, pane: a };

    assert.equal((await post(request, 'http://evil.example')).status, 403);
    assert.equal((await post(request, `http://127.0.0.1:${Number(new URL(web.origin).port) + 1}`)).status, 403, 'another port of this host');
    assert.equal((await post(request, null)).status, 403, 'no Origin');
    const forged = await post({ ...request, token: 'x'.repeat(43) });
    assert.deepEqual([forged.status, JSON.parse(forged.body).outcome], [410, 'expired']);
    const otherPane = await post({ ...request, pane: b });
    assert.deepEqual([otherPane.status, JSON.parse(otherPane.body).outcome], [403, 'invalid']);
    assert.equal((await post('not json')).status, 400);
    assert.equal((await post({ token: yes!.token })).status, 400);
    assert.deepEqual([keysOf(aKeys).length, keysOf(bKeys).length], typed, 'nothing typed');
    assert.equal((await lab.call(AGENT_GET, { target: a })).state, 'blocked');

    const answered = await post(request);
    assert.deepEqual([answered.status, JSON.parse(answered.body).outcome], [200, 'answered']);
    await waitFor(async () => (await lab.call(AGENT_GET, { target: a })).state !== 'blocked', { what: 'a unblocked', timeoutMs: 30_000 });
    const again = await post(request);
    assert.deepEqual([again.status, JSON.parse(again.body).outcome], [409, 'used']);
    assert.equal((await lab.call(AGENT_GET, { target: b })).state, 'blocked', 'b untouched');
    assert.equal(keysOf(bKeys).length, typed[1]);
  });
});
