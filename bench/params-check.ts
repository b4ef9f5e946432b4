// Cost of checking one request's params against its method's declaration, per request, against the
// JSON.parse of the same request's line measured in the same run (the one cost every request pays
// before its params are checked). Valid requests of the busiest methods, and refused ones.
// Run: node --import tsx bench/params-check.ts   (prints one JSON line, then a line for people)
import { CorralError } from '../src/protocol/errors.ts';
import type { MethodDecl } from '../src/protocol/method.ts';
import { checkParams } from '../src/protocol/params-check.ts';
import { AGENT_ANSWER, AGENT_LIST, AGENT_PROMPT, AGENT_WAIT, EVENTS_READ, PANE_REPORT_AGENT, PANE_SEND, PANE_SPAWN, SERVER_STATUS } from '../src/protocol/methods/index.ts';

const ITERATIONS = Number(process.env.CORRAL_BENCH_ITERATIONS ?? 200_000);

/** What the dispatcher does with a request's params (src/daemon/rpc/rpc-server.ts). */
const check = (method: MethodDecl<unknown, unknown>, params: unknown): unknown => checkParams(method, params);

const VALID: [MethodDecl<any, any>, object][] = [
  [SERVER_STATUS, {}],
  [PANE_SEND, { target: 'w1:p3', text: 'make test\n', keys: ['Enter'] }],
  [AGENT_PROMPT, { target: 'api', text: 'Run the tests and fix what fails.', submit: true }],
  [AGENT_ANSWER, { target: 'api', choice: 'yes', promptId: 'p-4f2a' }],
  [AGENT_WAIT, { targets: ['api', 'web', 'w2:p1'], until: ['idle', 'blocked'], mode: 'any', timeoutMs: 600_000, sinceSeq: 1234 }],
  [AGENT_LIST, { filter: { agent: 'claude', state: ['blocked', 'done'], workspace: 'w1' } }],
  [EVENTS_READ, { since: 4321, epoch: 'e-1a2b', filter: 'kind:agent.attention,pane.exited agent:claude', limit: 100 }],
  [PANE_REPORT_AGENT, { target: 'w1:p3', source: 'claude-hook', agent: 'claude', state: 'working', session: 's-91ab', seq: 17, ts: 1_764_000_000, pid: 4242 }],
  [
    PANE_SPAWN,
    {
      command: 'claude',
      args: ['--model', 'opus', '--verbose'],
      name: 'api',
      workspace: 'w1',
      cwd: '/home/me/src/api',
      env: { CORRAL_AGENT: 'claude', TERM: 'xterm-256color', LANG: 'C.UTF-8' },
      cols: 120,
      rows: 32,
      caller: { path: '/usr/local/bin:/usr/bin:/bin', cwd: '/home/me' },
    },
  ],
];

const REFUSED: [MethodDecl<any, any>, object][] = [
  [PANE_SEND, { target: 'w1:p3', txt: 'typo' }],
  [AGENT_WAIT, { targets: ['api'], until: ['sleeping'] }],
  [PANE_SPAWN, { command: 'claude', cols: 'wide' }],
];

function nsPer(run: () => void): number {
  for (let i = 0; i < ITERATIONS / 10; i++) run();
  const start = process.hrtime.bigint();
  for (let i = 0; i < ITERATIONS; i++) run();
  return Number(process.hrtime.bigint() - start) / ITERATIONS;
}

function frameOf(method: MethodDecl<unknown, unknown>, params: object): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 7, method: method.name, params });
}

let sink: unknown;
const measure = (cases: [MethodDecl<any, any>, object][], refused: boolean) =>
  cases.map(([method, params]) => {
    const frame = frameOf(method, params);
    const parse_ns = nsPer(() => {
      sink = JSON.parse(frame);
    });
    const check_ns = nsPer(() => {
      try {
        sink = check(method, params);
        if (refused) throw new Error(`${method.name} accepted ${JSON.stringify(params)}`);
      } catch (error) {
        if (!(error instanceof CorralError) || error.code !== 'invalid_params') throw error;
      }
    });
    return { method: method.name, check_ns: Math.round(check_ns), parse_ns: Math.round(parse_ns), ratio: Number((check_ns / parse_ns).toFixed(3)) };
  });

const valid = measure(VALID, false);
const refused = measure(REFUSED, true);
const mean = (rows: { ratio: number }[]) => Number((rows.reduce((sum, row) => sum + row.ratio, 0) / rows.length).toFixed(3));
void sink;
console.log(JSON.stringify({ bench: 'params-check', iterations: ITERATIONS, valid_mean_ratio: mean(valid), refused_mean_ratio: mean(refused), valid, refused }));
console.log(
  `params-check: valid requests ${mean(valid)}x the JSON.parse of their line (mean of ${valid.length} methods), refused ${mean(refused)}x; ` +
    valid.map((row) => `${row.method} ${row.check_ns} ns (${row.ratio}x)`).join(', '),
);
