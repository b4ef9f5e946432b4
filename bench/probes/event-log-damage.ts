// What a damaged event log does to the cursors clients saw, on real daemons and a real socket: two
// daemons publish events in one state folder (a client reads every one), the daemon is stopped, the
// newest segment of the log is damaged (200 bytes overwritten with zeros in its middle, the file cut
// in half, the file deleted), a new daemon publishes more, and the probe counts:
// - reused: cursors the client saw that now name another event (read back from the old cursors, or
//   handed out anew);
// - missed: new events a client resuming from the last cursor it saw (`events.read {since, epoch}`)
//   never gets, unless it gets an error instead (its code is reported);
// - logged: whether the new daemon's log names the damage.
// Not a benchmark (run.ts runs only bench/*.ts). Run alone: node --import tsx bench/probes/event-log-damage.ts
import { openSync, readdirSync, rmSync, statSync, truncateSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { eventLogDir } from '../../src/daemon/events/index.ts';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { connectCalling } from '../../harness/raw-client.ts';

const BEFORE_PER_DAEMON = 20;
const AFTER = 15;

type Damage = 'overwrite' | 'cut' | 'delete';

/** `count` panes named `${label}-i` that exit at once; resolves when the daemon has published all their exits. */
async function publish(call: (method: string, params?: unknown) => Promise<any>, label: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) await call('pane.spawn', { command: 'true', name: `${label}-${i}` });
  const from = (await call('events.cursor', {})).oldest - 1;
  for (;;) {
    const { events } = await readAll(call, from);
    if (events.filter((event) => event.kind === 'pane.exited' && event.pane?.name?.startsWith(`${label}-`)).length === count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every event after `since` the daemon answers, or the error it answers instead. */
async function readAll(call: (method: string, params?: unknown) => Promise<any>, since: number, epoch?: string): Promise<{ events: any[]; error?: string }> {
  const events: any[] = [];
  for (;;) {
    try {
      const page = await call('events.read', { since, ...(epoch !== undefined ? { epoch } : {}) });
      events.push(...page.events);
      if (!page.more) return { events };
      since = page.cursor;
    } catch (error) {
      return { events, error: (error as { rpc?: { data?: { code?: string } } }).rpc?.data?.code ?? String(error) };
    }
  }
}

function damage(dir: string, kind: Damage): string {
  const newest = readdirSync(dir).filter((name) => name.startsWith('seg-')).sort().at(-1)!;
  const path = join(dir, newest);
  const size = statSync(path).size;
  if (kind === 'overwrite') {
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(200), 0, 200, Math.floor(size / 2) - 100);
    closeSync(fd);
  } else if (kind === 'cut') truncateSync(path, Math.floor(size / 2));
  else unlinkSync(path);
  return newest;
}

async function trial(kind: Damage) {
  const dir = makeTempDir();
  const daemons: DaemonProcess[] = [];
  try {
    const seen = new Map<number, string>();
    let epoch = '';
    for (const round of [1, 2]) {
      const daemon = await startDaemon({ dir });
      daemons.push(daemon);
      const { client, call } = await connectCalling(daemon);
      await publish(call, `round${round}`, BEFORE_PER_DAEMON);
      const { events } = await readAll(call, 0);
      for (const event of events) seen.set(event.cursor, JSON.stringify(event));
      epoch = (await call('events.cursor', {})).epoch;
      client.close();
      await daemon.stop();
    }
    const last = Math.max(...seen.keys());
    const segment = damage(eventLogDir(join(dir, 'state', 'corral'), join(dir, 'corral.sock')), kind);
    const daemon = await startDaemon({ dir });
    daemons.push(daemon);
    const { client, call } = await connectCalling(daemon);
    await publish(call, 'after', AFTER);
    const now = await call('events.cursor', {});
    // Every event the new daemon holds, in whichever stream it is: new ones are of the panes after-i.
    const held = await readAll(call, now.oldest - 1);
    const fresh = held.events.filter((event) => String(event.pane?.name).startsWith('after-'));
    const reused = new Set<number>();
    for (const event of fresh) if (seen.has(event.cursor) && now.epoch === epoch) reused.add(event.cursor);
    for (const [cursor, text] of seen) {
      const back = await readAll(call, cursor - 1, epoch);
      const event = back.events.find((e) => e.cursor === cursor);
      if (event !== undefined && JSON.stringify(event) !== text) reused.add(cursor);
    }
    const resumed = await readAll(call, last, epoch);
    const got = new Set(resumed.events.map((event) => event.cursor));
    const missed = resumed.error !== undefined ? 0 : fresh.filter((event) => !got.has(event.cursor)).length;
    const logged = daemon.stderr().split('\n').filter((line) => line.includes(segment) || /damaged|lost/.test(line)).length > 0;
    client.close();
    return { kind, seen: seen.size, epochKept: now.epoch === epoch, reused: reused.size, missed, resumeError: resumed.error ?? null, logged };
  } finally {
    for (const daemon of daemons.reverse()) await daemon.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const kind of ['overwrite', 'cut', 'delete'] as const) console.log(JSON.stringify(await trial(kind)));
