// A client of its own process for bench/scale.ts: the wait's caller is another process, as a script's
// `corral agent wait` is, so its reply is read by this process's loop, not by the daemon's.
// Reads one JSON line per wait on stdin ({ target, until, sinceSeq }), calls agent.wait, and writes
// one line ({ seq, atNs }) with the moment the reply arrived on the monotonic clock (process.hrtime,
// CLOCK_MONOTONIC: the same clock in every process of the machine).
import { createInterface } from 'node:readline';
import { DaemonConnection } from '../../src/cli/with-daemon.ts';
import { AGENT_WAIT } from '../../src/protocol/methods/index.ts';

const client = await DaemonConnection.connect(process.argv[2]!);
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const { target, until, sinceSeq } = JSON.parse(line) as { target: string; until: 'working' | 'idle'; sinceSeq: number };
  const result = await client.call(AGENT_WAIT, { targets: [target], until: [until], sinceSeq, timeoutMs: 60_000 });
  const atNs = process.hrtime.bigint();
  process.stdout.write(`${JSON.stringify({ seq: result.seq, atNs: String(atNs) })}\n`);
}
client.dispose();
