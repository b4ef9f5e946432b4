// Re-reads every recorded label and drops the ones record.ts now refuses to take (recordings made
// before it checked): a "working-streaming" label whose screen already shows the whole slow
// answer, and an idle label after a turn whose screen lacks the agent's idle composer cue. Usage: node --import tsx agent-clis/audit-labels.ts
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCapture } from '../src/cli/offline/capture.ts';
import { replayAtOffsets } from '../src/cli/offline/replay-stream.ts';
import { SLOW_ANSWER_END } from './mock-model.ts';
import { agents } from './agents.ts';

const streams = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'streams');
const whole = new RegExp([...SLOW_ANSWER_END].map((ch) => ch.replace(/[-]/g, '\\-')).join('[\\s│┃]*'));

function* labelFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* labelFiles(path);
    else if (name === 'labels.json' && dir.split('/').length > streams.split('/').length + 1) yield path;
  }
}

for (const file of labelFiles(streams)) {
  const labels = JSON.parse(readFileSync(file, 'utf8')) as { file: string; agent: string; bytes: number; cols: number; rows: number; label: string }[];
  const spec = agents[labels[0]?.agent ?? ''];
  const checked = labels.filter((l) => l.label === '04-working-streaming' || /^(05|08|10)-idle/.test(l.label));
  if (!checked.length || !spec) continue;
  const drop = new Set<string>();
  await replayAtOffsets(readCapture(join(streams, checked[0]!.file)), checked.map((l) => l.bytes), { cols: checked[0]!.cols, rows: checked[0]!.rows }, (offset, input) => {
    const screen = input.lines.join('\n');
    for (const l of checked.filter((c) => c.bytes === offset)) {
      if (l.label.startsWith('04') ? whole.test(screen) : !spec.idle.test(screen)) drop.add(l.label);
    }
  });
  if (!drop.size) continue;
  writeFileSync(file, JSON.stringify(labels.filter((l) => !drop.has(l.label)), null, 1) + '\n');
  process.stdout.write(`${file}: dropped ${[...drop].join(', ')}\n`);
}
