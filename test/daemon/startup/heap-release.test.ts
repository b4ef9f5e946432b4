import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeTempDir, startDaemon } from '../../../harness/daemon.ts';
import { connectCalling } from '../../../harness/raw-client.ts';
import { waitFor } from '../../../harness/wait.ts';

const PRELOAD = fileURLToPath(new URL('../../fixtures/heap-stats-preload.mjs', import.meta.url));
const LINES = 20_000;
const PRESSURE = '[IncrementalMarking] Start (memory pressure)';

test('a daemon gives its grown young generation back once output stops', async () => {
  const dir = makeTempDir();
  const stats = join(dir, 'stats');
  mkdirSync(stats);
  const daemon = await startDaemon({
    dir,
    // V8 says why each incremental marking starts: the one the daemon asks for is "memory pressure".
    nodeArgs: ['--trace-incremental-marking'],
    env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${PRELOAD}`.trim(), CORRAL_PROBE_HEAP_STATS: stats },
  });
  const { client, call } = await connectCalling(daemon);
  /** The daemon's young generation (both semi-spaces, committed), read through the preloaded fixture. */
  const newSpace = async () => {
    const file = join(stats, `${daemon.pid}.json`);
    rmSync(file, { force: true });
    process.kill(daemon.pid, 'SIGPWR');
    await waitFor(() => existsSync(file), { what: 'the heap statistics', timeoutMs: 10_000 });
    const { spaces } = JSON.parse(readFileSync(file, 'utf8')) as { spaces: { space_name: string; space_size: number }[] };
    return spaces.find((space) => space.space_name === 'new_space')!.space_size;
  };
  try {
    // Output makes young garbage in the daemon (frames, parsing, history rows): its young generation
    // grows to several MiB (it starts at 1 MiB a semi-space; module loading alone grows it).
    // A line every 200 ms after them keeps the daemon from reading as quiet (TRIM_CHECK_MS, 2 s) until
    // the grown size is read: on a slow machine the read may come seconds after the last line.
    const quiet = join(dir, 'quiet');
    const script = `for ((i = 1; i <= ${LINES}; i++)); do echo "line $i of the output that the daemon parses"; done; while [ ! -e ${quiet} ]; do echo tick; sleep 0.2; done; exec sleep 100000`;
    const pane = await call('pane.spawn', { command: 'bash', args: ['-c', script], cwd: dir });
    await waitFor(async () => (await call('pane.read', { target: pane.id })).text.includes(`line ${LINES} `), { what: 'the last line', timeoutMs: 120_000 });
    const grown = await newSpace();
    assert.ok(grown > 4 * 2 ** 20, `the young generation grew under output (${grown} bytes)`);
    writeFileSync(quiet, '');
    // Nothing prints now: at the first quiet check the daemon asks V8 for its heap back (a collection
    // for memory pressure), and the young generation shrinks to its initial size. Without the request,
    // V8 shrinks it only at some later collection of its own, and at rest little allocates.
    await waitFor(() => daemon.stdout().includes(PRESSURE), { what: 'a collection for memory pressure', timeoutMs: 60_000 });
    const rested = await waitFor(async () => {
      const size = await newSpace();
      return size <= 2 * 2 ** 20 ? size : 0;
    }, { what: `the young generation back to at most 2 MiB (it was ${grown} bytes)`, timeoutMs: 60_000 });
    assert.ok(rested < grown);
  } finally {
    client.close();
    await daemon.dispose();
  }
});
