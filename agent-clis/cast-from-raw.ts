// Converts a folder's session.raw (bytes without timing) into session.cast (asciicast v2) and moves
// its labels.json onto it. The timing is synthetic, and the header says so (corral.timing):
// output in chunks of at most 1 KiB (cut at label offsets and character boundaries) 10 ms apart;
// an idle or blocked label is taken 2 s after its last byte (the recorder's quiet rule), any other
// 0.1 s after; output resumes 10 ms after a label.
//   node --import tsx agent-clis/cast-from-raw.ts test/fixtures/streams/gemini [agent version]
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { formatAsciicast, type CastEvent } from '../src/terminal/asciicast.ts';

interface Label {
  file: string;
  bytes: number;
  time?: number;
  agent: string;
  version: string;
  cols: number;
  rows: number;
  label: string;
  expect: { state: string };
}

const CHUNK = 1024;
const STEP_S = 0.01;
const QUIET_LABEL_S = 2;
const BUSY_LABEL_S = 0.1;

const folder = process.argv[2];
if (!folder) throw new Error('usage: cast-from-raw.ts FOLDER');
const raw = readFileSync(join(folder, 'session.raw'));
const labels = JSON.parse(readFileSync(join(folder, 'labels.json'), 'utf8')) as Label[];
const cuts = [...new Set(labels.map((l) => l.bytes))].sort((a, b) => a - b);

const events: CastEvent[] = [];
let t = 0;
let at = 0;
const times = new Map<number, number>();
for (const cut of [...cuts, raw.length]) {
  while (at < cut) {
    let end = Math.min(cut, at + CHUNK);
    while (end < cut && (raw[end]! & 0xc0) === 0x80) end--; // never split a UTF-8 character
    events.push([round(t), 'o', raw.subarray(at, end).toString('utf8')]);
    at = end;
    t += STEP_S;
  }
  if (cut === raw.length && !labels.some((l) => l.bytes === cut)) break;
  const quiet = labels.filter((l) => l.bytes === cut).some((l) => l.expect.state === 'idle' || l.expect.state === 'blocked');
  t += (quiet ? QUIET_LABEL_S : BUSY_LABEL_S) - STEP_S;
  times.set(cut, round(t));
  t += STEP_S;
}

const first = labels[0]!;
const header = {
  version: 2 as const,
  width: first.cols,
  height: first.rows,
  env: { TERM: 'xterm-256color' },
  corral: { agent: first.agent, agent_version: first.version, timing: 'synthetic' as const },
};
writeFileSync(join(folder, 'session.cast'), formatAsciicast({ header, events }));
const name = basename(folder);
const moved = labels.map((l) => ({ file: `${name}/session.cast`, bytes: l.bytes, time: times.get(l.bytes)!, agent: l.agent, version: l.version, cols: l.cols, rows: l.rows, label: l.label, expect: l.expect }));
writeFileSync(join(folder, 'labels.json'), JSON.stringify(moved, null, 1) + '\n');
rmSync(join(folder, 'session.raw'));
process.stdout.write(`${folder}: ${events.length} events, ${raw.length} bytes, ${labels.length} labels\n`);

function round(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6;
}
