import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { inboxFilePath } from '../../../src/daemon/inbox/inbox-path.ts';
import { makeTempDir, startDaemon, testEnv } from '../../../harness/daemon.ts';
import { connectCalling as connect } from '../../../harness/raw-client.ts';

describe('the inbox file a daemon starts with', () => {
  it('is read back as written; one of another shape is moved aside and the log says why', async () => {
    const dir = makeTempDir();
    const socket = join(dir, 'corral.sock');
    const path = inboxFilePath(socket, testEnv(dir));
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const item = { id: 3, pane: { id: 'w1:p1', name: null }, agent: 'claude', state: 'done', seq: 5, cursor: 11, ts: 1, title: null, message: 'finished', prompt: null };
    writeFileSync(path, JSON.stringify({ version: 1, nextId: 4, lastCursor: 11, items: [item] }), { mode: 0o600 });
    let daemon = await startDaemon({ dir, socket });
    try {
      const a = await connect(daemon);
      assert.deepEqual((await a.call('inbox.list', {})).items, [item], 'the item written is the item listed');
      a.client.close();
      await daemon.stop();

      writeFileSync(path, JSON.stringify({ version: 99, items: 'none' }), { mode: 0o600 });
      daemon = await startDaemon({ dir, socket });
      const b = await connect(daemon);
      assert.deepEqual((await b.call('inbox.list', {})).items, [], 'an inbox of another shape is not read');
      b.client.close();
      const aside = readdirSync(dirname(path)).filter((name) => name.startsWith(`${basename(path)}.unusable-`));
      assert.equal(aside.length, 1, 'it is moved aside');
      assert.equal(readFileSync(join(dirname(path), aside[0]!), 'utf8'), JSON.stringify({ version: 99, items: 'none' }), 'unchanged');
      assert.match(daemon.stderr(), /"reason":"wrong_shape".*inbox file unusable: moved aside/);
    } finally {
      await daemon.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
