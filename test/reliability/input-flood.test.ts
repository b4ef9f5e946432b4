// A flood of pane.send into a terminal that takes it and drops it (a line longer than its buffer, in
// line mode, with echo off): the bytes wait nowhere, but they pass through the pty host's buffers, and
// the host must give that memory back once the flood stops, as it does after output.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TRIM_AGAIN_CHECKS, TRIM_CHECK_MS } from '../../src/terminal/allocator-trim.ts';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';
import { report } from '../../harness/figures.ts';
import { rssKiB } from '../../harness/proc.ts';

const FLOOD_BYTES = 64e6;
/** What the host may keep after the flood, above what it held before. */
const KEPT_BOUND_KIB = 24 * 1024;

describe('the pty host after an input flood', () => {
  const session = useDaemon();

  it(`gives back what ${FLOOD_BYTES / 1e6} MB of input grew, once the input stops`, async () => {
    const pane = await session.call('pane.spawn', { command: 'sh', args: ['-c', 'stty -echo; echo ready; exec sleep 300'], cwd: session.daemon.dir });
    await session.screenContains(pane.id, 'ready');
    const [host] = session.daemon.hostPids();
    assert.ok(host, 'the daemon names its pty host');
    const before = rssKiB(host);
    const chunk = 'x'.repeat(1e6); // no newline: the terminal drops what its line buffer cannot hold
    let sent = 0;
    while (sent < FLOOD_BYTES) {
      const reply = await session.client.call(100000 + sent / 1e6, 'pane.send', { target: pane.id, text: chunk });
      if (reply.error) {
        assert.equal(reply.error.data.code, 'pane_input_full');
        await new Promise((resolve) => setTimeout(resolve, 20)); // the terminal takes it as fast as it reads it
      } else sent += 1e6;
    }
    const peak = rssKiB(host);
    // Two trims follow the last input: at the first quiet check and TRIM_AGAIN_CHECKS later.
    const settleMs = (TRIM_AGAIN_CHECKS + 4) * TRIM_CHECK_MS;
    let after = peak;
    await waitFor(() => (after = rssKiB(host)) - before < KEPT_BOUND_KIB, { what: 'the host to give the memory back', timeoutMs: settleMs }).catch(() => {});
    report('host RSS around an input flood', { beforeMiB: before >> 10, peakMiB: peak >> 10, afterMiB: after >> 10 });
    assert.ok(after - before < KEPT_BOUND_KIB, `the host kept ${(after - before) >> 10} MiB more than before the flood (${before >> 10} to ${after >> 10} MiB)`);
    await session.call('pane.kill', { target: pane.id });
  });
});
