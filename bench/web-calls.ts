// The daemon calls `corral web`'s board makes per agent state change with no page open (issue: goal 0).
// A blocking fake agent (bench/lib/blocking-agent.ts) draws its permission form and goes back to idle,
// TRIALS times: two state changes each. The board runs in this process on a real daemon; every call it
// makes goes through its client, counted by method (counted, not replaced).
// Run: node --import tsx bench/web-calls.ts   (CORRAL_BENCH_TRIALS, default 20)
import { DaemonConnection } from '../src/client/index.ts';
import { connect } from '../src/client/index.ts';
import { PANE_SEND, PANE_SPAWN } from '../src/protocol/methods/pane.ts';
import { EVENTS_SUBSCRIBE } from '../src/protocol/methods/events.ts';
import { Board } from '../src/web/board.ts';
import { makeTempDir, startDaemon } from '../harness/daemon.ts';
import { clockNow, writeBlockingAgent } from './lib/blocking-agent.ts';
import { eventWaiter, isBackToIdle, isBlockedAttention } from './lib/event-waiter.ts';
import { waitFor } from '../harness/wait.ts';

const TRIALS = Number(process.env.CORRAL_BENCH_TRIALS ?? 20);

const dir = makeTempDir('corral-bench-web-calls-');
const daemon = await startDaemon({ dir });
const control = await DaemonConnection.connect(daemon.socket);
const client = await connect({ socket: daemon.socket });
const board = new Board(client);
try {
  await board.start();
  await control.call(EVENTS_SUBSCRIBE, { filter: 'pane:bench' });
  const next = eventWaiter(control, clockNow('wall'));
  const program = writeBlockingAgent(dir, 'wall');
  await next(isBackToIdle, () => control.call(PANE_SPAWN, { command: process.execPath, args: [program], name: 'bench', cwd: dir, env: { CORRAL_AGENT: 'claude', STAMP_FILE: `${dir}/stamps` } }));
  const card = () => board.list().find((entry) => entry.info.name === 'bench');
  await waitFor(() => card()?.info.state !== undefined && card()!.info.state !== 'working', { what: 'the bench card', timeoutMs: 30_000 });
  const calls = new Map<string, number>();
  const call = client.call.bind(client);
  client.call = ((method: string, ...args: unknown[]) => {
    calls.set(method, (calls.get(method) ?? 0) + 1);
    return (call as (m: string, ...a: unknown[]) => Promise<unknown>)(method, ...args);
  }) as typeof client.call;
  let changes = 0;
  for (let i = 0; i < TRIALS; i += 1) {
    await next(isBlockedAttention, () => control.call(PANE_SEND, { target: 'bench', text: 'b' }));
    await waitFor(() => card()?.info.state === 'blocked', { what: 'the card blocked', timeoutMs: 10_000 });
    await next(isBackToIdle, () => control.call(PANE_SEND, { target: 'bench', text: 'i' }));
    await waitFor(() => card()?.info.state !== 'blocked', { what: 'the card back', timeoutMs: 10_000 });
    changes += 2;
  }
  // Reads an event asked for may still be on their way: let them land before counting.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const perChange = Object.fromEntries([...calls].map(([method, count]) => [method, Number((count / changes).toFixed(2))]));
  console.log(JSON.stringify({ bench: 'web-calls', stateChanges: changes, pagesOpen: 0, callsPerStateChange: perChange, total: [...calls.values()].reduce((a, b) => a + b, 0) }));
} finally {
  board.close();
  client.close();
  control.dispose();
  await daemon.dispose();
}
