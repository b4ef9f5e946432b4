// Usage reading's cost to the daemon (docs/usage.md): 20 panes each append a turn to a Claude Code
// transcript every 500 ms for RUN_S seconds; the daemon's CPU seconds and RSS with the transcripts
// named to it (read as they grow) against the same run with them unnamed (nothing read), alternated.
// Run alone: node --import tsx bench/usage.ts [panes] [seconds] [rounds]   (default 20 30 2)
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDaemon } from '../harness/daemon.ts';
import { cpuSeconds, rssKiB } from '../harness/proc.ts';
import { RawClient } from '../harness/raw-client.ts';

const WRITER = fileURLToPath(new URL('./lib/transcript-writer.mjs', import.meta.url));
const panes = Number(process.argv[2] ?? 20);
const seconds = Number(process.argv[3] ?? 30);
const rounds = Number(process.argv[4] ?? 2);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(reading: boolean): Promise<{ cpu: number; rssMiB: number; tokens: number }> {
  const daemon = await startDaemon();
  const client = await RawClient.connect(daemon.socket);
  let id = 1;
  try {
    const ids: string[] = [];
    for (let i = 0; i < panes; i += 1) {
      const env = { WRITER_FILE: join(daemon.dir, `t${i}.jsonl`), ...(reading ? {} : { WRITER_UNNAMED: '1' }) };
      const reply = await client.call(id++, 'pane.spawn', { command: process.execPath, args: [WRITER], cwd: daemon.dir, env });
      if (reply.error) throw new Error(reply.error.message);
      ids.push(reply.result.id);
    }
    await sleep(2000);
    const cpuBefore = cpuSeconds(daemon.pid);
    await sleep(seconds * 1000);
    const cpu = cpuSeconds(daemon.pid) - cpuBefore;
    const rssMiB = rssKiB(daemon.pid) / 1024;
    let tokens = 0;
    for (const pane of ids) {
      const usage = (await client.call(id++, 'agent.get', { target: pane })).result?.usage;
      if (typeof usage === 'object') tokens += usage.tokens.input + usage.tokens.output + usage.tokens.cacheRead + usage.tokens.cacheWrite;
    }
    return { cpu, rssMiB, tokens };
  } finally {
    client.close();
    await daemon.dispose();
  }
}

const results: { reading: boolean; cpu: number; rssMiB: number; tokens: number }[] = [];
for (let round = 0; round < rounds; round += 1) {
  for (const reading of round % 2 === 0 ? [false, true] : [true, false]) {
    const result = { reading, ...(await run(reading)) };
    results.push(result);
    console.log(JSON.stringify({ bench: 'usage', panes, seconds, ...result, cpu: +result.cpu.toFixed(2), rssMiB: +result.rssMiB.toFixed(1) }));
  }
}
const mean = (reading: boolean, key: 'cpu' | 'rssMiB') => results.filter((r) => r.reading === reading).reduce((sum, r) => sum + r[key], 0) / rounds;
const [cpuOff, cpuOn, rssOff, rssOn] = [mean(false, 'cpu'), mean(true, 'cpu'), mean(false, 'rssMiB'), mean(true, 'rssMiB')];
console.log(
  `${panes} panes writing transcripts for ${seconds} s, ${rounds} rounds: daemon CPU ${cpuOff.toFixed(2)} s without usage reading, ${cpuOn.toFixed(2)} s with ` +
    `(${(((cpuOn - cpuOff) / cpuOff) * 100).toFixed(1)}%); RSS ${rssOff.toFixed(1)} MiB against ${rssOn.toFixed(1)} MiB (${(((rssOn - rssOff) / rssOff) * 100).toFixed(1)}%)`,
);
