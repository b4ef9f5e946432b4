// The fleet: 3 hosts of 50 panes each (one fake agent and 49 shells), each its own daemon reached
// through its own sshd on localhost. Measures the fleet list's p99 (`agent list --fleet`, all panes)
// and the wake-up of a wait across hosts, against the same on one host through the same ssh path,
// and against one daemon's own socket, all in one run.
// Run alone: node --import tsx bench/fleet.ts   (CORRAL_BENCH_TRIALS: list calls, default 200;
// CORRAL_BENCH_WAITS: waits, default 30)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectFleet, DaemonConnection, type Fleet } from '../src/client/index.ts';
import { AGENT_LIST, AGENT_WAIT, PANE_SEND, PANE_SPAWN, SERVER_STATUS } from '../src/protocol/methods/index.ts';
import { CORRAL_BIN, makeTempDir, startDaemon, type DaemonProcess } from '../harness/daemon.ts';
import { startSshd, type LocalSshd } from '../harness/sshd.ts';
import { summary } from '../harness/figures.ts';

const FAKE_AGENT = fileURLToPath(new URL('../test/fixtures/agents/fake-claude.mjs', import.meta.url));

const HOSTS = 3;
const PANES = 50;
const listTrials = Number(process.env.CORRAL_BENCH_TRIALS ?? 200);
const waitTrials = Number(process.env.CORRAL_BENCH_WAITS ?? 30);

interface Machine {
  name: string;
  daemon: DaemonProcess;
  sshd: LocalSshd;
  direct: DaemonConnection;
}

async function machine(index: number): Promise<Machine> {
  const dir = makeTempDir('corral-bench-fleet-');
  mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
  // A shorter debounce only brings idle sooner between trials; it does not change how a wait wakes. The work
  // lasts long enough that the screen is seen working: with 30 ms, one trial of a run never saw it.
  writeFileSync(join(dir, 'config', 'corral', 'config.toml'), '[arbiter]\ndebounce_ms = 100\n');
  const [daemon, sshd] = await Promise.all([startDaemon({ dir }), startSshd()]);
  const direct = await DaemonConnection.connect(daemon.socket);
  await direct.call(PANE_SPAWN, { command: process.execPath, args: [FAKE_AGENT], name: 'agent', cwd: dir, env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '500' } });
  for (let i = 1; i < PANES; i += 1) await direct.call(PANE_SPAWN, { command: '/bin/sh', args: ['-c', 'exec sleep 3600'], name: `shell-${i}`, cwd: dir });
  await direct.call(AGENT_WAIT, { targets: ['agent'], until: ['idle'], timeoutMs: 60_000 });
  return { name: `box${index + 1}`, daemon, sshd, direct };
}

function specOf(m: Machine) {
  return { name: m.name, ssh: m.sshd.host, command: [process.execPath, CORRAL_BIN], sshOptions: ['-F', m.sshd.sshConfig], socket: m.daemon.socket };
}

async function timeLists(list: () => Promise<unknown>): Promise<ReturnType<typeof summary>> {
  for (let i = 0; i < 10; i += 1) await list(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < listTrials; i += 1) {
    const start = performance.now();
    await list();
    samples.push(performance.now() - start);
  }
  return summary(samples);
}

/** From typing into the agent on `target`'s host to the wait (set before) returning; then back to idle. */
async function timeWaits(fleet: Fleet, targets: string[], on: Machine, hosts: Machine[]): Promise<ReturnType<typeof summary>> {
  const samples: number[] = [];
  for (let i = 0; i < waitTrials; i += 1) {
    const seqs = Object.fromEntries(await Promise.all(targets.map(async (t) => [t.split('@')[1]!, (await fleet.callOn(t.split('@')[1]!, 'agent.list', {})).seq] as const)));
    const waiting = fleet.wait({ targets, until: ['working'], sinceSeq: seqs, timeoutMs: 30_000 }).then(() => performance.now());
    // Typed only once every host holds its wait (each wait dials its host: ssh's handshake is not the wake-up).
    for (const host of hosts) while ((await host.direct.call(SERVER_STATUS, {})).waits < 1) await new Promise((resolve) => setTimeout(resolve, 20));
    const start = performance.now();
    await on.direct.call(PANE_SEND, { target: 'agent', text: `trial ${i}`, keys: ['Enter'] });
    samples.push((await waiting) - start);
    await on.direct.call(AGENT_WAIT, { targets: ['agent'], until: ['idle'], timeoutMs: 30_000 });
  }
  return summary(samples);
}

const machines = await Promise.all(Array.from({ length: HOSTS }, (_, i) => machine(i)));
const all = await connectFleet(machines.map(specOf));
const one = await connectFleet([specOf(machines[0]!)]);
try {
  const direct = await timeLists(() => machines[0]!.direct.call(AGENT_LIST, { all: true }));
  const oneHost = await timeLists(() => one.list({ all: true }));
  const fleetList = await timeLists(() => all.list({ all: true }));
  const last = machines.at(-1)!;
  const waitOne = await timeWaits(one, [`agent@${machines[0]!.name}`], machines[0]!, [machines[0]!]);
  const waitFleet = await timeWaits(all, machines.map((m) => `agent@${m.name}`), last, machines);
  const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
  const result = {
    bench: 'fleet',
    hosts: HOSTS,
    panesPerHost: PANES,
    list: { fleetOf3: fleetList, oneHostOverSsh: oneHost, oneDaemonSocket: direct, p99Ratio3to1: ratio(fleetList.p99Ms, oneHost.p99Ms), p99RatioToSocket: ratio(fleetList.p99Ms, direct.p99Ms) },
    waitWake: { acrossHosts: waitFleet, oneHost: waitOne, medianRatio: ratio(waitFleet.medianMs, waitOne.medianMs), p99Ratio: ratio(waitFleet.p99Ms, waitOne.p99Ms) },
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.stdout.write(
    `fleet list of ${HOSTS}x${PANES} panes: p99 ${fleetList.p99Ms} ms vs ${oneHost.p99Ms} ms for one host over ssh (x${result.list.p99Ratio3to1}) and ${direct.p99Ms} ms on one socket; ` +
      `wait across hosts wakes in ${waitFleet.medianMs} ms median (p99 ${waitFleet.p99Ms}) vs ${waitOne.medianMs} ms (p99 ${waitOne.p99Ms}) on one host (x${result.waitWake.medianRatio})\n`,
  );
} finally {
  all.close();
  one.close();
  for (const m of machines) m.direct.dispose();
  await Promise.all(machines.map(async (m) => {
    await m.daemon.dispose();
    await m.sshd.stop();
  }));
}
