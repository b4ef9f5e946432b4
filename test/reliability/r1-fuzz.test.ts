// R1, fuzz: 10,000 hostile frames over many connections. Every frame gets an answer (an error, or a
// result where the frame happens to be a valid request) or a clean close; the daemon never crashes; a
// well-behaved client is served throughout and its p99 is reported (never asserted).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_METHODS } from '../../src/protocol/methods/index.ts';
import { PROTOCOL_VERSION } from '../../src/protocol/version.ts';
import { startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { RawClient } from '../../harness/raw-client.ts';
import { isAlive } from '../../harness/proc.ts';
import { LineClient } from '../../harness/line-client.ts';
import { report, summary } from '../../harness/figures.ts';

const CONNECTIONS = 50;
const FRAMES_PER_CONNECTION = 200; // 10,000 in all

/** Parameter shapes of the wrong type for any method: arrays, scalars, objects with absurd fields. */
const WRONG_PARAMS: unknown[] = [
  [],
  'params',
  42,
  null,
  true,
  { target: 42, id: [], name: {}, command: 7, args: 'x', text: null, cols: 'wide', rows: -1, timeoutMs: 'soon', until: 5, lines: 1e308 },
  { target: '', since: -1, filter: 12, keys: [null], source: 'everything', ansi: 'yes' },
  { target: 'x'.repeat(10_000) },
  { __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } },
];

function deepNesting(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** The hostile frames of one connection; the last one may end the connection (too large, or cut). */
function hostileFrames(connection: number): { lines: (string | Buffer)[]; ending: 'open' | 'too_large' | 'half_then_close' } {
  const lines: (string | Buffer)[] = [];
  let id = connection * 1_000_000;
  const request = (method: string, params: unknown, requestId: unknown = ++id) =>
    JSON.stringify({ jsonrpc: '2.0', id: requestId, method, params }) + '\n';
  for (let i = 0; lines.length < FRAMES_PER_CONNECTION - 1; i += 1) {
    const method = ALL_METHODS[i % ALL_METHODS.length]!.name;
    switch (i % 12) {
      case 0:
        lines.push('{"jsonrpc": "2.0", "id": 1, "method": \n');
        break;
      case 1:
        lines.push(request(method, WRONG_PARAMS[i % WRONG_PARAMS.length]));
        break;
      case 2:
        lines.push(JSON.stringify([{ jsonrpc: '2.0', id: ++id, method: 'server.status' }, { jsonrpc: '2.0', id: ++id, method }]) + '\n');
        break;
      case 3:
        lines.push(`{"jsonrpc":"2.0","id":${++id},"method":"server.status","params":{"a":${deepNesting(5000)}}}\n`);
        break;
      case 4:
        lines.push(deepNesting(100_000) + '\n');
        break;
      case 5:
        lines.push(request('server.status', {}, '9'.repeat(400)));
        break;
      case 6:
        lines.push(`{"jsonrpc":"2.0","id":123456789012345678901234567890123456789,"method":"${method}","params":{"lines":1e400}}\n`);
        break;
      case 7:
        lines.push(Buffer.concat([Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 0x1b, 0x9b]), Buffer.from(`${i}\n`)]));
        break;
      case 8:
        lines.push(request(method, WRONG_PARAMS[(i + 3) % WRONG_PARAMS.length], { nested: [id] }));
        break;
      case 9:
        lines.push(request(`${method}\u0000.evil`, {}));
        break;
      case 10:
        lines.push(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: { target: '../../../etc/passwd', command: '\u0000', args: ['\u0000'] } }) + '\n');
        break;
      default:
        lines.push(request(method, WRONG_PARAMS[(i + 5) % WRONG_PARAMS.length]));
    }
  }
  const ending = connection % 3 === 0 ? 'too_large' : connection % 3 === 1 ? 'half_then_close' : 'open';
  if (ending === 'open') lines.push(request('server.status', []));
  return { lines, ending };
}

/** Sends the frames one by one and counts answers and clean closes. */
async function runConnection(socket: string, connection: number): Promise<{ sent: number; answered: number; closed: number; unanswered: number }> {
  const { lines, ending } = hostileFrames(connection);
  const client = await LineClient.connect(socket);
  let answered = 0;
  let unanswered = 0;
  let closed = 0;
  try {
    for (const line of lines) {
      client.write(line);
      // Answers are the lines with an id member (notifications have none).
      if (await client.nextAnswer(20_000)) answered += 1;
      else unanswered += 1;
    }
    let sent = lines.length;
    if (ending === 'too_large') {
      client.write(Buffer.alloc(2 * 1024 * 1024, 0x61));
      client.write('\n');
      sent += 1;
      const reply = await client.nextAnswer(20_000);
      if (reply && (await client.closedWithin(20_000))) closed += 1;
      else unanswered += 1;
    } else if (ending === 'half_then_close') {
      client.write('{"jsonrpc":"2.0","id":7,"method":"server.sta');
      sent += 1;
      client.end();
      if (await client.closedWithin(20_000)) closed += 1;
      else unanswered += 1;
    }
    return { sent, answered, closed, unanswered };
  } finally {
    client.destroy();
  }
}

describe('R1, fuzz', () => {
  let daemon: DaemonProcess;
  before(async () => {
    daemon = await startDaemon();
  });
  after(async () => {
    await daemon?.dispose();
  });

  it('answers or cleanly closes on each of 10,000 hostile frames, without a crash, while a well-behaved client is served', { timeout: 600_000 }, async () => {
    const bystander = await RawClient.connect(daemon.socket);
    let fuzzing = true;
    const served: number[] = [];
    let bystanderFailures = 0;
    const watcher = (async () => {
      for (let id = 1; fuzzing; id += 1) {
        const start = performance.now();
        const reply = await bystander.call(id, 'server.status').catch(() => null);
        if (reply?.result?.protocolVersion === PROTOCOL_VERSION) served.push(performance.now() - start);
        else bystanderFailures += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const totals = { sent: 0, answered: 0, closed: 0, unanswered: 0 };
    const batch = 10; // connections at a time
    for (let first = 0; first < CONNECTIONS; first += batch) {
      const results = await Promise.all(Array.from({ length: batch }, (_, k) => runConnection(daemon.socket, first + k)));
      for (const r of results) for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += r[key];
    }
    fuzzing = false;
    await watcher;
    bystander.close();
    report('R1 fuzz', { ...totals, connections: CONNECTIONS, bystanderCalls: served.length, bystanderStatus: summary(served) });
    assert.ok(totals.sent >= 10_000, `sent ${totals.sent} frames`);
    assert.equal(totals.unanswered, 0, 'every frame gets an answer or a clean close');
    assert.equal(totals.answered + totals.closed, totals.sent);
    assert.equal(bystanderFailures, 0, 'the well-behaved client is served throughout');
    assert.ok(served.length > 0);
    assert.ok(isAlive(daemon.pid) && daemon.child.exitCode === null, 'the daemon still runs');
    const after = await RawClient.connect(daemon.socket);
    assert.equal((await after.call(1, 'server.status')).result.protocolVersion, PROTOCOL_VERSION);
    after.close();
  });
});
