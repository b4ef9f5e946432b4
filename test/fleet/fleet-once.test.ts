// A one-shot fleet (`connectFleet(hosts, {once: true})`, the CLI's one-shot commands and MCP's fleet
// tool) tries each host once: one that is away stays offline, never back to connecting by a retry
// while the command is still at work (CI once read `connecting` for a host it had found offline).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { connectFleet, localHost, type HostStatus } from '../../src/client/index.ts';
import { makeTempDir } from '../../harness/daemon.ts';
import { sleep } from '../../harness/wait.ts';

/** A socket nothing listens on: the host is away from the start. */
const away = () => localHost(join(makeTempDir('corral-away-'), 'none.sock'));

async function statesSeen(once: boolean): Promise<string[]> {
  const fleet = await connectFleet([away()], { once, reconnect: { initialMs: 1, maxMs: 1 } });
  const seen: string[] = [];
  fleet.onHostChange((status: HostStatus) => seen.push(status.state));
  try {
    await fleet.ready();
    seen.push(fleet.hosts()[0]!.state);
    // Long enough for dozens of 1 ms retries when the fleet retries.
    await sleep(200);
    seen.push(fleet.hosts()[0]!.state);
    return seen;
  } finally {
    fleet.close();
  }
}

test('a host away stays offline in a one-shot fleet, and is tried again in a live one', async () => {
  const once = await statesSeen(true);
  assert.deepEqual([...new Set(once)], ['offline'], `once: ${once.length} states told, ${[...new Set(once)].join(' and ')}`);
  const live = await statesSeen(false);
  assert.ok(live.includes('connecting'), `live: ${[...new Set(live)].join(' and ')}`);
});
