// A fleet host that breaks the protocol (test/fixtures/hostile-host.mjs, reached through its own sshd
// on localhost) costs the CLI and `corral web --fleet` no more memory than a normal host does, and
// shows offline with a stable code and a reason a person can act on (docs/fleet.md, "A host that
// breaks the protocol"). Memory is the kernel's peak (VmHWM), set against the same command's peak
// with a normal host in the same run.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startDaemon, testEnv, type DaemonProcess } from '../../harness/daemon.ts';
import { startFleetHost, startHostileHost, type FleetHost, type HostileMode } from '../../harness/fleet-host.ts';
import { heapCensus, heapSnapshotOptions, type HeapCensus } from '../../harness/heap.ts';
import { peakKiB, runCliMeasured } from '../../harness/peak-rss.ts';
import { waitFor } from '../../harness/wait.ts';
import { startWeb, type WebProcess } from '../../harness/web.ts';
import { MAX_PENDING_REQUESTS } from '../../src/client/connection.ts';
import { MAX_FRAME_BYTES } from '../../src/protocol/framing.ts';

/** A hang guard for one step over ssh on a loaded machine, not a figure. */
const STEP_MS = 120_000;
/** The most a hostile host may add to a command's peak memory, as a share of its peak with a normal host. */
const MEMORY_RATIO = 1.2;
const MiB = 1 << 20;
/**
 * What a flood may leave alive in `corral web --fleet` beyond what its first part did: the frames in
 * hand, and the board's reads of the flooded panes that wait for their answers behind the stream (at
 * most MAX_PENDING_REQUESTS on the connection, under 1 KiB each with their promises).
 */
const HEAP_GROWTH_BOUND = 2 * MAX_FRAME_BYTES + MAX_PENDING_REQUESTS * 1024;
/** The bytes of a live heap that are data (objects, strings, arrays, closures), not compiled code. */
const dataBytes = (census: HeapCensus) => census.liveBytes - (census.bytesByType.get('code') ?? 0);

interface ListedHost {
  name: string;
  state: string;
  code: string | null;
  reason: string | null;
}

/** What each attack is, and how the host must be shown once the client has had enough of it. */
const ATTACKS: { mode: HostileMode; what: string; code: string | null; reason: RegExp }[] = [
  { mode: 'line', what: 'a line of 256 MiB that never ends', code: 'frame_too_large', reason: /sent a line longer than 1 MiB/ },
  { mode: 'reply', what: 'a reply of 64 MiB', code: 'frame_too_large', reason: /sent a line longer than 1 MiB/ },
  { mode: 'garbage', what: 'random bytes without end', code: null, reason: /sent a line (longer than 1 MiB|that is not JSON)/ },
  { mode: 'held', what: 'events without end, its subscription never answered', code: 'bad_reply', reason: /sent more than 64 KiB of events before answering events\.subscribe/ },
];

describe('a hostile fleet host: the client holds the 1 MiB frame bound and its memory', () => {
  let local: DaemonProcess;
  let box: FleetHost;
  let env: NodeJS.ProcessEnv;
  const normal = { hostList: 0, agentList: 0, web: 0 };
  const configure = (toml: string) => writeFileSync(join(local.dir, 'config', 'corral', 'config.toml'), toml);

  const hostList = async (name: string) => {
    const run = await runCliMeasured(['host', 'list', '--json'], env, STEP_MS);
    assert.equal(run.timedOut, false, `host list hung:\n${run.stderr}`);
    assert.equal(run.code, 0, run.stderr);
    const host = (JSON.parse(run.stdout) as { hosts: ListedHost[] }).hosts.find((h) => h.name === name)!;
    return { peak: run.peakKiB, host };
  };
  const agentList = async () => {
    const run = await runCliMeasured(['agent', 'list', '--fleet', '--json'], env, STEP_MS);
    assert.equal(run.timedOut, false, `agent list --fleet hung:\n${run.stderr}`);
    assert.equal(run.code, 0, run.stderr);
    return { peak: run.peakKiB, hosts: (JSON.parse(run.stdout) as { hosts: ListedHost[] }).hosts };
  };
  /** `corral web --fleet` until `done`; its peak memory then, and the last line it logged about `name`. */
  const webUntil = async (name: string, done: (web: WebProcess) => boolean) => {
    const web = await startWeb(local, ['--fleet']);
    try {
      await waitFor(() => done(web), { what: `corral web --fleet to have met host ${name}`, timeoutMs: STEP_MS });
      return { peak: peakKiB(web.child.pid!), said: web.stderr().split('\n').filter((line) => line.includes(`host ${name}`)) };
    } finally {
      await web.dispose();
    }
  };
  const within = (peak: number, base: number, what: string) =>
    assert.ok(peak <= base * MEMORY_RATIO, `${what}: peak ${(peak / 1024).toFixed(0)} MiB, with a normal host ${(base / 1024).toFixed(0)} MiB (at most ${MEMORY_RATIO}x)`);

  before(async () => {
    [local, box] = await Promise.all([startDaemon(), startFleetHost('box')]);
    mkdirSync(join(local.dir, 'config', 'corral'), { recursive: true });
    env = { ...process.env, ...testEnv(local.dir), CORRAL_SOCKET: local.socket, CORRAL_HOST: undefined, CORRAL_SSH: undefined };
    configure(box.toml);
    const listed = await hostList('box');
    assert.equal(listed.host.state, 'connected');
    normal.hostList = listed.peak;
    normal.agentList = (await agentList()).peak;
    normal.web = (await webUntil('box', (web) => /host box: connected/.test(web.stderr()))).peak;
  });

  after(async () => {
    await Promise.all([local?.dispose(), box?.dispose()]);
  });

  for (const attack of ATTACKS) {
    it(`${attack.mode}: ${attack.what}`, async () => {
      const hostile = await startHostileHost('hostile', attack.mode);
      try {
        configure(hostile.toml);
        const listed = await hostList('hostile');
        within(listed.peak, normal.hostList, 'corral host list');
        assert.equal(listed.host.state, 'offline');
        if (attack.code !== null) assert.equal(listed.host.code, attack.code, listed.host.reason ?? '');
        assert.match(listed.host.reason ?? '', attack.reason);

        const agents = await agentList();
        within(agents.peak, normal.agentList, 'corral agent list --fleet');
        const shown = agents.hosts.find((h) => h.name === 'hostile')!;
        assert.match(shown.reason ?? '', attack.reason);

        // Until the web view has met the attack on several connections (the fleet's link and a board's, then again).
        const before = hostile.connections();
        const web = await webUntil('hostile', (process) => hostile.connections() - before >= 3 && attack.reason.test(process.stderr()));
        within(web.peak, normal.web, 'corral web --fleet');
        assert.ok(web.said.some((line) => /offline/.test(line) && attack.reason.test(line)), web.said.join('\n'));
      } finally {
        await hostile.dispose();
      }
    });
  }

  it('flood: valid small events without end: nothing is queued, so memory does not grow with the stream', async () => {
    const hostile = await startHostileHost('hostile', 'flood');
    try {
      configure(hostile.toml);
      // Valid small frames break no rule: the host stays connected.
      const listed = await hostList('hostile');
      within(listed.peak, normal.hostList, 'corral host list');
      assert.equal(listed.host.state, 'connected', listed.host.reason ?? '');
      within((await agentList()).peak, normal.agentList, 'corral agent list --fleet');
      // The web view parses every event of the stream as it would a busy host's, which costs it what
      // any stream that fast does: its peak resident memory sits at about twice its idle peak and moves
      // with when the collector runs, so it is no measure of a queue. What is alive after a full
      // collection is: four times the stream leaves no more data alive than the first part did, bar what
      // the connection bounds (HEAP_GROWTH_BOUND). Compiled code is left out: the engine
      // compiles hot functions again as it sees fit, a few MiB either way, and a queue is never code.
      const heapDir = join(local.dir, 'web-heap');
      mkdirSync(heapDir);
      const web = await startWeb(local, ['--fleet'], heapSnapshotOptions(heapDir));
      try {
        await waitFor(() => hostile.sent() >= 32 << 20, { what: 'the first 32 MiB of events taken', timeoutMs: STEP_MS });
        const early = dataBytes(await heapCensus(web.child.pid!, heapDir));
        await waitFor(() => hostile.sent() >= 128 << 20, { what: '128 MiB of events taken', timeoutMs: 4 * STEP_MS });
        const late = dataBytes(await heapCensus(web.child.pid!, heapDir));
        assert.ok(late - early < HEAP_GROWTH_BOUND, `corral web --fleet: live data ${(early / MiB).toFixed(1)} MiB after 32 MiB of events, ${(late / MiB).toFixed(1)} MiB after 128 MiB (bound: ${(HEAP_GROWTH_BOUND / MiB).toFixed(1)} MiB more)`);
        assert.match(web.stderr(), /host hostile: connected/);
      } finally {
        await web.dispose();
      }
    } finally {
      await hostile.dispose();
    }
  });

  it('names a host whose status is not a status, and keeps what ssh said short and free of escapes', async () => {
    const wrong = await startHostileHost('hostile', 'status');
    try {
      configure(wrong.toml);
      const { host } = await hostList('hostile');
      assert.equal(host.state, 'offline');
      assert.equal(host.code, 'bad_reply');
      assert.match(host.reason ?? '', /answered server\.status with something that is not a daemon's status/);
      assert.doesNotMatch(host.reason ?? '', /\[object Object\]|undefined/);
    } finally {
      await wrong.dispose();
    }
    const noisy = await startHostileHost('hostile', 'stderr');
    try {
      configure(noisy.toml);
      const { peak, host } = await hostList('hostile');
      within(peak, normal.hostList, 'corral host list');
      assert.equal(host.state, 'offline');
      assert.match(host.reason ?? '', /wrote more than 1 MiB to ssh's stderr/);
    } finally {
      await noisy.dispose();
    }
    const escaping = await startHostileHost('hostile', 'escape');
    try {
      configure(escaping.toml);
      // The table says why in a word or two; ssh's own words, made printable, are in --json.
      const run = await runCliMeasured(['host', 'list'], env, STEP_MS);
      assert.match(run.stdout, /^hostile\s.*\soffline \S+ \([a-z ]+\)$/m);
      assert.doesNotMatch(run.stdout, /\x1b|\x07/, 'no escape of the host reaches the terminal');
      const json = await runCliMeasured(['host', 'list', '--json'], env, STEP_MS);
      assert.doesNotMatch(json.stdout, /\x1b|\x07/, 'nor through --json');
      const host = (JSON.parse(json.stdout) as { hosts: ListedHost[] }).hosts.find((h) => h.name === 'hostile')!;
      assert.match(host.reason ?? '', /exited with 3: \?\]0;owned\?\?\[2J\?\[31mthe host says: gone/);
    } finally {
      await escaping.dispose();
    }
  });
});
