// A large transcript read incrementally with bounded memory (docs/usage.md, "Reading a record,
// bounded"): a Claude Code transcript of SIZE MiB (default 500) is written lazily into a temporary
// folder, a pane names it to a real daemon, and the probe samples the daemon's RSS and the latency of
// `server.status` until the daemon's sum matches the file's, then removes the file.
// Run alone: node --import tsx bench/probes/usage-large.ts [MiB]
import { createWriteStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDaemon } from '../../harness/daemon.ts';
import { rssKiB } from '../../harness/proc.ts';
import { RawClient } from '../../harness/raw-client.ts';

const WRITER = fileURLToPath(new URL('../lib/transcript-writer.mjs', import.meta.url));
const mib = Number(process.argv[2] ?? 500);

/** Writes the transcript: user lines of 16 KiB, every tenth line a message with usage; answers the sums. */
async function writeTranscript(file: string): Promise<number> {
  const out = createWriteStream(file);
  const user = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'u'.repeat(16 << 10) } })}\n`;
  let bytes = 0;
  let messages = 0;
  for (let line = 0; bytes < mib << 20; line += 1) {
    let text = user;
    if (line % 10 === 9) {
      messages += 1;
      text = `${JSON.stringify({ type: 'assistant', requestId: `r${messages}`, message: { id: `m${messages}`, model: 'claude-sonnet-4-5', usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 1, cache_creation_input_tokens: 1 } } })}\n`;
    }
    bytes += text.length;
    if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(resolve));
  return messages * 4;
}

const daemon = await startDaemon();
const client = await RawClient.connect(daemon.socket);
const file = join(daemon.dir, 'large.jsonl');
let id = 1;
try {
  const startWrite = Date.now();
  const expected = await writeTranscript(file);
  const writeS = (Date.now() - startWrite) / 1000;
  const before = rssKiB(daemon.pid);
  const started = Date.now();
  let peak = before;
  let slowest = 0;
  let tokens = 0;
  // The pane's program names the file as its record (and, told to write every hour, adds nothing to it).
  const namer = (await client.call(id++, 'pane.spawn', { command: process.execPath, args: [WRITER], cwd: daemon.dir, env: { WRITER_FILE: file, WRITER_EVERY_MS: '3600000' } })).result.id;
  for (;;) {
    const asked = Date.now();
    await client.call(id++, 'server.status', {});
    slowest = Math.max(slowest, Date.now() - asked);
    peak = Math.max(peak, rssKiB(daemon.pid));
    const usage = (await client.call(id++, 'agent.get', { target: namer })).result?.usage;
    tokens = typeof usage === 'object' ? usage.tokens.input + usage.tokens.output + usage.tokens.cacheRead + usage.tokens.cacheWrite : 0;
    if (tokens >= expected || Date.now() - started > 600_000) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const readS = (Date.now() - started) / 1000;
  const result = { probe: 'usage-large', mib, writeS: +writeS.toFixed(1), readS: +readS.toFixed(1), tokens, expected, rssBeforeMiB: +(before / 1024).toFixed(1), rssPeakMiB: +(peak / 1024).toFixed(1), slowestStatusMs: slowest };
  console.log(JSON.stringify(result));
  console.log(`${mib} MiB transcript read in ${result.readS} s (${tokens} of ${expected} tokens); daemon RSS ${result.rssBeforeMiB} MiB before, ${result.rssPeakMiB} MiB at most while reading; slowest server.status ${slowest} ms`);
} finally {
  client.close();
  await daemon.dispose();
  rmSync(file, { force: true });
}
