import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { DaemonConnection } from '../../../src/cli/with-daemon.ts';
import { EVENT } from '../../../src/protocol/notifications.ts';
import { EVENTS_SUBSCRIBE, type CorralEvent } from '../../../src/protocol/methods/events.ts';
import { PANE_KILL, PANE_SPAWN } from '../../../src/protocol/methods/pane.ts';
import { startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { waitFor } from '../../../harness/wait.ts';

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Waits until a process has used no CPU for 300 ms: it has done what it was given. */
async function settled(pid: number): Promise<void> {
  for (;;) {
    const before = cpuTicks(pid);
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (cpuTicks(pid) === before) return;
  }
}

function children(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

describe('pane.exited through a real daemon', () => {
  let daemon: DaemonProcess;
  let control: DaemonConnection;
  let subscriber: DaemonConnection;
  const events: CorralEvent[] = [];

  before(async () => {
    daemon = await startDaemon();
    control = await DaemonConnection.connect(daemon.socket);
    subscriber = await DaemonConnection.connect(daemon.socket);
    subscriber.onNotification(EVENT, (event) => events.push(event as CorralEvent));
    await subscriber.call(EVENTS_SUBSCRIBE, {});
  });

  after(async () => {
    subscriber?.dispose();
    control?.dispose();
    await daemon?.dispose();
  });

  /** The pane events of one pane once its removal arrived: a script waiting on the stream sees these. */
  async function paneEvents(id: string): Promise<string[]> {
    await waitFor(() => events.some((e) => e.kind === 'pane.removed' && e.pane?.id === id), { what: `pane.removed of ${id}` });
    return events.filter((e) => e.pane?.id === id && e.kind.startsWith('pane.')).map((e) => e.kind);
  }

  it('tells exactly one pane.exited before pane.removed for every killed pane, whether it ran on or had ended', async () => {
    for (const [command, args] of [['true', []], ['sleep', ['100']], ['sh', ['-c', 'exit 3']]] as const) {
      for (let i = 0; i < 5; i += 1) {
        const pane = await control.call(PANE_SPAWN, { command, args: [...args], cwd: daemon.dir });
        const killed = await control.call(PANE_KILL, { target: pane.id });
        assert.equal(killed.state, 'exited', 'the kill answers once the pane has exited');
        assert.deepEqual(await paneEvents(pane.id), ['pane.created', 'pane.exited', 'pane.removed'], `${command} ${pane.id}`);
      }
    }
  });

  it('tells pane.exited after pane.created for a program that ended before its spawn was answered', async () => {
    // The daemon reads the host's answer to the spawn and the pane's exit together: the host is held
    // until the daemon has asked, then the daemon is held until the program has ended.
    const [host] = daemon.hostPids();
    assert.ok(host !== undefined, 'the pty host is up');
    process.kill(host, 'SIGSTOP');
    let spawning: Promise<{ id: string }>;
    try {
      spawning = control.call(PANE_SPAWN, { command: 'sleep', args: ['0.2'], cwd: daemon.dir });
      await settled(daemon.pid);
      process.kill(daemon.pid, 'SIGSTOP');
    } finally {
      process.kill(host, 'SIGCONT');
    }
    try {
      await waitFor(() => children(host).length > 0, { what: 'the program to start' });
      await waitFor(() => children(host).length === 0, { what: 'the program to end' });
      await settled(host);
    } finally {
      process.kill(daemon.pid, 'SIGCONT');
    }
    const pane = await spawning;
    await control.call(PANE_KILL, { target: pane.id });
    assert.deepEqual(await paneEvents(pane.id), ['pane.created', 'pane.exited', 'pane.removed']);
  });
});
