// Not a benchmark: CPU profiles of the daemon and its pty host while one pane prints a large mixed
// stream (the one-pane half of bench/ingest.ts), and a summary of where their time went.
// Run: node --import tsx bench/_ingest-profile.ts [MiB, default 20] [profile folder, default a temporary one]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon } from '../test/helpers/daemon.ts';
import { LineClient } from '../test/reliability/helpers.ts';
import { sleep, writeMixedFile } from './_lib.ts';

const MB = Number(process.argv[2] ?? 20);
const dir = mkdtempSync(join(tmpdir(), 'corral-ingest-profile-'));
const profiles = process.argv[3] ?? join(dir, 'profiles');
mkdirSync(profiles, { recursive: true });
try {
  const { path } = writeMixedFile(dir, MB);
  const daemon = await startDaemon({ dir: mkdtempSync(join(dir, 'daemon-')), env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profiles}` } });
  const client = await LineClient.connect(daemon.socket);
  let id = 0;
  const call = async (method: string, params: unknown) => {
    client.write(`${JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params })}\n`);
    const answer = await client.nextAnswer(120_000);
    if (!answer || answer.error) throw new Error(`${method}: ${JSON.stringify(answer?.error ?? 'no answer')}`);
    return answer.result as any;
  };
  const load = loadavg()[0]!;
  const start = performance.now();
  const pane = await call('pane.spawn', { command: 'bash', args: ['-c', `stty raw -echo; cat '${path}'`], cwd: dir });
  while ((await call('pane.list', {})).panes.find((p: any) => p.id === pane.id).state === 'running') await sleep(20);
  const seconds = (performance.now() - start) / 1000;
  client.destroy();
  await daemon.dispose();
  console.log(JSON.stringify({ MiB: MB, seconds: +seconds.toFixed(2), MiBps: +(MB / seconds).toFixed(1), load: [load, loadavg()[0]!].map((l) => +l.toFixed(1)) }));
  await sleep(500);
  for (const file of readdirSync(profiles).filter((f) => f.endsWith('.cpuprofile'))) console.log(file, summarise(join(profiles, file)));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** Self time by function (top 25) and by script, in ms. */
function summarise(file: string): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((sample, i) => {
    const node = byId.get(sample)!;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const frame = node.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + ms);
    total += ms;
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
  return `total ${total.toFixed(0)} ms\n` + top.map(([k, v]) => `  ${v.toFixed(0).padStart(6)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`).join('\n');
}
