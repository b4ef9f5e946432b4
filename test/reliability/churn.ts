// Shared pieces of R3 (churn): a daemon that writes heap snapshots on request, spawn-and-kill cycles over
// several connections, and what panes leave behind (descriptors of the daemon and the pty host,
// processes below the host). R3 is split over files, one idea each, so that each fits the suite's
// per-file bound on a loaded machine.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, type DaemonProcess } from '../../harness/daemon.ts';
import { descendantsOf, fdCount, fdTargets, isAlive, rssKiB } from '../../harness/proc.ts';
import { heapCensus, type HeapCensus, type HeapDaemon, startHeapDaemon } from '../../harness/heap.ts';
import { LineClient, request } from '../../harness/line-client.ts';
import { report } from '../../harness/figures.ts';
import { sleep } from '../../harness/wait.ts';

/**
 * Spawn-and-kill cycles run at once, each on its own connection. A kill waits for the pane's exit,
 * which the host reports once the terminal has drained (about 30 ms of quiet after the child exits,
 * see pty-process.ts), so a cycle is mostly waiting: more at once keep the file within the
 * suite's per-file bound on a loaded machine.
 */
export const WORKERS = 16;
/** The objects one pane hangs in the daemon: none may outlive its removal. */
export const PANE_OBJECTS = ['PaneRecord', 'RemotePane', 'Screen', 'PaneAgent'];

/** Calls on a line client; a bound, not a timing: on a loaded 2-core machine one spawn or kill can take seconds. */
export function caller(client: LineClient) {
  return (id: number, method: string, params: unknown): Promise<any> => request(client, id, method, params);
}

export type ChurnDaemon = HeapDaemon;

/**
 * A daemon whose event ring is at its floor (100 events), so that the ring is full after a warm-up: a
 * ring filling up is bounded growth, not a leak.
 */
export async function startChurnDaemon(): Promise<ChurnDaemon> {
  const dir = makeTempDir();
  const config = join(dir, 'config.toml');
  writeFileSync(config, '[events]\nretain = 100\n');
  return startHeapDaemon(dir, ['--config', config]);
}

type Call = ReturnType<typeof caller>;

/** Runs `work` for each of `count` items over WORKERS connections, each connection one item at a time. */
export async function overConnections(daemon: DaemonProcess, count: number, work: (call: Call, item: number, id: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      const client = await LineClient.connect(daemon.socket);
      const call = caller(client);
      try {
        for (let id = 1; next < count; id += 10) await work(call, next++, id);
      } finally {
        client.destroy();
      }
    }),
  );
}

/** Runs `cycles` spawn-and-kill cycles over WORKERS connections; returns how many completed. */
export async function churn(daemon: DaemonProcess, command: string, args: string[], cycles: number): Promise<{ completed: number; failures: string[] }> {
  let completed = 0;
  const failures: string[] = [];
  await overConnections(daemon, cycles, async (call, _item, id) => {
    const spawned = await call(id, 'pane.spawn', { command, args, cwd: daemon.dir });
    if (spawned.error) {
      failures.push(`spawn: ${spawned.error.data?.code ?? spawned.error.message}`);
      return;
    }
    const killed = await call(id + 1, 'pane.kill', { target: spawned.result.id });
    if (killed.error) failures.push(`kill: ${killed.error.data?.code ?? killed.error.message}`);
    else completed += 1;
  });
  return { completed, failures };
}

/** The pty host's pid: the parent of each pane's first process. */
export function hostPid(daemon: DaemonProcess): number {
  const pids = daemon.hostPids().filter(isAlive);
  if (pids.length !== 1) throw new Error(`expected one live pty host, found ${pids.join(', ') || 'none'}`);
  return pids[0]!;
}

/** Open descriptors of the daemon and of its pty host (which holds every pane's terminal). */
export function descriptors(daemon: DaemonProcess): { daemon: number; host: number } {
  return { daemon: fdCount(daemon.pid), host: fdCount(hostPid(daemon)) };
}

/**
 * The descriptors once they have come back to `before`, or after a bound (not a timing): the daemon
 * closes a client's socket a moment after the client goes, and a pane's terminal once its process is reaped.
 */
export async function settledDescriptors(daemon: DaemonProcess, before: { daemon: number; host: number }): Promise<{ daemon: number; host: number }> {
  let now = descriptors(daemon);
  for (let i = 0; i < 300 && (now.daemon > before.daemon || now.host > before.host); i += 1) {
    await sleep(100);
    now = descriptors(daemon);
  }
  return now;
}

/**
 * Waits until the daemon has closed every connection but the one asking, which stays open (a count
 * from server.status), so that a descriptor count does not include a client that has just gone; a
 * bound, not a timing.
 */
export async function quietConnections(call: Call): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    if ((await call(100_000 + i, 'server.status', {})).result?.connections === 1) return;
    await sleep(100);
  }
}

/** What descriptors of `pid` point at (socket:[inode], pipe:[inode], /dev/ptmx, files). */
export function descriptorTargets(pid: number): string[] {
  return fdTargets(pid).map((target) => target.replace(/\[\d+\]$/, '[]')).sort();
}

/** Every process below the pty host: what removed panes left behind. */
export function leftBehind(daemon: DaemonProcess): { pid: number; state: string; comm: string }[] {
  return descendantsOf(hostPid(daemon));
}

/** Waits for the pane processes to be gone (a killed pane's processes may take a moment to be reaped); a bound, not a timing. */
export async function settledChildren(daemon: DaemonProcess): Promise<{ pid: number; state: string; comm: string }[]> {
  let children = leftBehind(daemon);
  for (let i = 0; i < 300 && children.length > 0; i += 1) {
    await sleep(100);
    children = leftBehind(daemon);
  }
  return children;
}

/** The live heap in MiB, two decimals. */
const mib = (bytes: number) => +(bytes / 1048576).toFixed(2);

/**
 * The churn check of R3: after a warm-up, `cycles` spawn-and-kill cycles of one command leave the same
 * descriptors in the daemon and the host, no process below the host, no pane object alive, and live
 * data (the heap after a full collection, compiled code aside) in the daemon and in the host grown
 * less than 10%.
 *
 * The live heap, not RSS, is the measure of a leak: RSS also holds memory the allocator keeps after
 * the objects in it are gone (bench/probes/churn.ts shows the live heap flat while RSS creeps and then
 * plateaus), and a heap snapshot's own buffers stay in it. RSS is reported (before the snapshots,
 * halfway and at the end), not asserted.
 */
export async function churnLeavesNothing(label: string, command: string, args: string[], cycles: number): Promise<void> {
  const { daemon, heapDir } = await startChurnDaemon();
  // The one connection open while descriptors are counted.
  const monitor = await LineClient.connect(daemon.socket);
  try {
    const warm = await churn(daemon, command, args, 100);
    assert.equal(warm.completed, 100, warm.failures.slice(0, 5).join(', '));
    assert.deepEqual(await settledChildren(daemon), [], 'the warm-up left no process');
    await quietConnections(caller(monitor));
    const host = hostPid(daemon);
    const fdsBefore = descriptors(daemon);
    const targetsBefore = { daemon: descriptorTargets(daemon.pid), host: descriptorTargets(host) };
    const rssBefore = rssKiB(daemon.pid) + rssKiB(host);
    const daemonBefore = await heapCensus(daemon.pid, heapDir);
    const hostBefore = await heapCensus(host, heapDir);
    // RSS is read again halfway: the snapshots above leave their buffers in the allocator, so the
    // halfway reading, not the first, is the one to compare the last with (a plateau or not).
    const firstHalf = await churn(daemon, command, args, cycles / 2);
    const rssHalfway = rssKiB(daemon.pid) + rssKiB(host);
    const secondHalf = await churn(daemon, command, args, cycles - cycles / 2);
    const run = { completed: firstHalf.completed + secondHalf.completed, failures: [...firstHalf.failures, ...secondHalf.failures] };
    const children = await settledChildren(daemon);
    await quietConnections(caller(monitor));
    const fdsAfter = await settledDescriptors(daemon, fdsBefore);
    const targetsAfter = { daemon: descriptorTargets(daemon.pid), host: descriptorTargets(host) };
    const rssAfter = rssKiB(daemon.pid) + rssKiB(host);
    const daemonAfter = await heapCensus(daemon.pid, heapDir);
    const hostAfter = await heapCensus(host, heapDir);
    // Compiled code is left out: V8 compiles and flushes it as functions warm and cool (the host's
    // code went 1.69, 1.74, 1.79, 1.67 MiB at 100, 400, 700 and 1,000 cycles while its data stayed
    // put), bounded by the program's size, and it is a tenth of the host's small heap.
    const data = (census: HeapCensus) => census.liveBytes - (census.bytesByType.get('code') ?? 0);
    const growth = (after: HeapCensus, before: HeapCensus) => (data(after) - data(before)) / data(before);
    const paneObjects = Object.fromEntries(PANE_OBJECTS.map((name) => [name, daemonAfter.counts.get(name) ?? 0]));
    report(`R3 churn, ${label}`, {
      cycles: run.completed,
      failures: run.failures.slice(0, 5),
      fdsBefore,
      fdsAfter,
      children: children.length,
      zombies: children.filter((c) => c.state === 'Z').length,
      paneObjects,
      daemonLiveDataMiB: [mib(data(daemonBefore)), mib(data(daemonAfter))],
      daemonLiveDataGrowthPercent: +(growth(daemonAfter, daemonBefore) * 100).toFixed(1),
      hostLiveDataMiB: [mib(data(hostBefore)), mib(data(hostAfter))],
      hostLiveDataGrowthPercent: +(growth(hostAfter, hostBefore) * 100).toFixed(1),
      codeMiB: { daemon: [mib(daemonBefore.liveBytes - data(daemonBefore)), mib(daemonAfter.liveBytes - data(daemonAfter))], host: [mib(hostBefore.liveBytes - data(hostBefore)), mib(hostAfter.liveBytes - data(hostAfter))] },
      rssDaemonAndHostMiB: { beforeSnapshots: +(rssBefore / 1024).toFixed(1), halfway: +(rssHalfway / 1024).toFixed(1), end: +(rssAfter / 1024).toFixed(1) },
    });
    assert.equal(run.completed, cycles, run.failures.slice(0, 5).join(', '));
    assert.deepEqual(children, [], 'no child process or zombie is left');
    assert.ok(fdsAfter.daemon <= fdsBefore.daemon, `daemon descriptors ${targetsBefore.daemon.join(' ')} before, ${targetsAfter.daemon.join(' ')} after`);
    assert.ok(fdsAfter.host <= fdsBefore.host, `host descriptors ${targetsBefore.host.join(' ')} before, ${targetsAfter.host.join(' ')} after`);
    assert.deepEqual(paneObjects, Object.fromEntries(PANE_OBJECTS.map((name) => [name, 0])), 'no removed pane is retained');
    assert.ok(growth(daemonAfter, daemonBefore) < 0.1, `daemon live data ${data(daemonBefore)} to ${data(daemonAfter)} bytes`);
    assert.ok(growth(hostAfter, hostBefore) < 0.1, `host live data ${data(hostBefore)} to ${data(hostAfter)} bytes`);
    assert.ok(isAlive(daemon.pid));
  } finally {
    monitor.destroy();
    await daemon.dispose();
  }
}
