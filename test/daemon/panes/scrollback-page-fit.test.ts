// A scrollback page fits the 1 MiB frame the clients hold (docs/protocol.md, "pane.read"): wide lines
// come in shorter pages, `more` says the rest waits, and paging on with `offset` reaches every line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_FRAME_BYTES } from '../../../src/protocol/framing.ts';
import { MAX_READ_LINES } from '../../../src/protocol/methods/pane.ts';
import { useDaemon } from '../../helpers/session.ts';

describe('a scrollback page of wide lines', () => {
  const session = useDaemon();

  it('is cut to fit the frame, and pages on to the first line', async () => {
    // 3000 lines of 1000 characters: a page of 2000 would be 2 MB.
    const pane = await session.call('pane.spawn', {
      command: '/bin/sh',
      args: ['-c', `i=0; while [ $i -lt 3000 ]; do printf 'line %05d %0989d\\n' $i 0; i=$((i+1)); done; exec sleep 300`],
      cwd: session.daemon.dir,
      cols: 1000,
    });
    await session.screenContains(pane.id, 'line 02999');
    const first = await session.call('pane.read', { target: pane.id, source: 'scrollback' });
    assert.ok(Buffer.byteLength(JSON.stringify(first)) < MAX_FRAME_BYTES);
    const got = first.text.split('\n').length;
    assert.ok(got < MAX_READ_LINES && got > 100, `a page of ${got} lines`);
    assert.equal(first.more, true);
    const seen = new Set<string>();
    let offset = 0;
    for (let page = first; ; ) {
      const lines = page.text.split('\n');
      for (const line of lines) if (line.startsWith('line ')) seen.add(line.slice(0, 10));
      offset += lines.length;
      if (!page.more) break;
      page = await session.call('pane.read', { target: pane.id, source: 'scrollback', offset });
    }
    assert.equal(seen.size, 3000, 'every line, once paged through');
    const agentPage = await session.call('agent.read', { target: pane.id, source: 'scrollback' });
    assert.ok(Buffer.byteLength(JSON.stringify(agentPage)) < MAX_FRAME_BYTES, 'agent.read is cut the same way');
    await session.call('pane.kill', { target: pane.id });
  });
});
