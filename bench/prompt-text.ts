// How whole the prompts read from the recordings are: how many permission prompts hold the whole
// command in prompt.text, and how many lack it yet say complete; how many choice labels are cut (a
// label that the same dialog at the widest size of its group goes on from); how many say complete.
// Every labelled blocked moment of test/fixtures/streams/ at its recorded size, and the 120-column
// recordings (with the shared corpus's streams when ../shared/corpus is present) replayed at 60 to
// 300 columns, where the emulator wraps what the agent drew for 120; and (`drawn`) long and two-line
// commands the recordings lack, in Claude Code's and Codex's dialogs drawn at 60 to 300 columns.
// A stream replayed at another width than its own is drawn for the wrong width: rows the agent
// placed with the cursor land across wrapped rows, and a dialog can be unreadable there; it then
// counts as a miss, and should not say complete.
// Run: node --import tsx bench/prompt-text.ts [--list]   (one JSON line, a line per kind and agent; --list names the misses)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCapture } from '../src/cli/offline/capture.ts';
import { replayCapture } from '../src/cli/offline/replay-stream.ts';
import { wrapWords as wrap } from '../harness/word-wrap.ts';
import { readPrompt } from '../src/detect/prompt-read.ts';
import type { DetectInput } from '../src/detect/types.ts';
import { ManifestSet } from '../src/manifest-store/manifest-set.ts';

const STREAMS = fileURLToPath(new URL('../test/fixtures/streams/', import.meta.url));
const CORPUS = fileURLToPath(new URL('../../shared/corpus/streams/', import.meta.url));
const REPLAY_WIDTHS = [60, 70, 80, 100, 160, 200, 300];
/** The commands the mock model asks to run (agent-clis/mock-model.ts) and the corpus sessions' marker file. */
const COMMANDS = [/touch capture-proof\.txt/, /curl -s http:\/\/127\.0\.0\.1:9\/capture-check/, /touch \/home\/dev\/code\/agent\/work\/run-[a-z]+-\d+\/x\.txt/];
/** Capture folders differ by size and a random suffix; labels name them. */
const TEMP_FOLDER = /\/tmp\/corral-[a-z]+-[a-z-]+-\d+x\d+-\w+\//g;

interface Label {
  file: string;
  bytes: number;
  agent: string;
  version?: string;
  cols: number;
  rows: number;
  label: string;
  expect: { state: string };
}

interface Moment {
  agent: string;
  group: string;
  cols: number;
  label: string;
  input: DetectInput;
}

const manifests = new ManifestSet({ userDir: null, catalogDir: null });

function labelFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return labelFiles(path);
    return entry === 'labels.json' ? [path] : [];
  });
}

async function moments(root: string, labels: Label[], cols: number, rows: number, group: string): Promise<Moment[]> {
  const blocked = labels.filter((label) => label.expect.state === 'blocked');
  const found: Moment[] = [];
  if (blocked.length === 0) return found;
  await replayCapture(readCapture(join(root, blocked[0]!.file)), blocked.map((label) => ({ bytes: label.bytes })), { cols, rows }, {
    point: (index, input) => found.push({ agent: blocked[index]!.agent, group: `${group}/${blocked[index]!.label}`, cols, label: blocked[index]!.label, input }),
  });
  return found;
}

async function allMoments(): Promise<Moment[]> {
  const all: Moment[] = [];
  for (const file of labelFiles(STREAMS).sort()) {
    const labels = JSON.parse(readFileSync(file, 'utf8')) as Label[];
    const folder = relative(STREAMS, dirname(file));
    const [agent, version, size] = folder.split('/');
    const group = `${agent}/${version ?? ''}/${size?.replace(/^\d+x\d+/, '') ?? ''}`;
    const { cols, rows } = labels[0]!;
    all.push(...(await moments(STREAMS, labels, cols, rows, group)));
    if (cols === 120) for (const width of REPLAY_WIDTHS) all.push(...(await moments(STREAMS, labels, width, rows, `${group}@replay`)));
  }
  if (existsSync(join(CORPUS, 'cases.json'))) {
    const cases = JSON.parse(readFileSync(join(CORPUS, 'cases.json'), 'utf8')) as Label[];
    for (const file of [...new Set(cases.map((c) => c.file))]) {
      const labels = cases.filter((c) => c.file === file);
      for (const width of [labels[0]!.cols, ...REPLAY_WIDTHS]) all.push(...(await moments(CORPUS, labels, width, labels[0]!.rows, `corpus/${file}@replay`)));
    }
  }
  return all;
}

/** The screen as one string: soft-wrapped rows joined, every run of white space one space. */
function screenText(input: DetectInput): string {
  let text = '';
  input.lines.forEach((line, row) => (text += (input.wrapped?.[row] ? '' : '\n') + line));
  return text.replace(/\s+/g, ' ');
}

const normal = (label: string) => label.replace(TEMP_FOLDER, '/tmp/F/');

const moments_ = await allMoments();
const widest = new Map<string, { cols: number; labels: string[] }>();
const reads = moments_.map((moment) => {
  const prompt = readPrompt(manifests.get(moment.agent)!, moment.input);
  const labels = prompt.choices.map((choice) => normal(choice.label));
  const best = widest.get(moment.group);
  if (!best || best.cols < moment.cols) widest.set(moment.group, { cols: moment.cols, labels });
  return { moment, prompt, labels };
});

interface Tally { permissions: number; whole: number; missedComplete: number; labels: number; cut: number; prompts: number; complete: number }
const empty = (): Tally => ({ permissions: 0, whole: 0, missedComplete: 0, labels: 0, cut: 0, prompts: 0, complete: 0 });
/** Per kind of moment (recorded at its size, or replayed at another width) and agent. */
const tallies = new Map<string, Tally>();
const misses: string[] = [];
for (const { moment, prompt, labels } of reads) {
  const kind = moment.group.includes('@replay') && !moment.group.startsWith('corpus/') ? 'replayed' : moment.group.startsWith('corpus/') ? 'corpus' : 'recorded';
  const key = `${kind} ${moment.agent}`;
  const tally = tallies.get(key) ?? empty();
  tallies.set(key, tally);
  tally.prompts++;
  const complete = (prompt as { complete?: boolean }).complete === true;
  if (complete) tally.complete++;
  if (/permission/.test(moment.label)) {
    tally.permissions++;
    const command = COMMANDS.map((pattern) => pattern.exec(screenText(moment.input))?.[0] ?? null).find((found) => found !== null);
    if (command && prompt.text.replace(/\s+/g, ' ').includes(command)) tally.whole++;
    else {
      if (complete) tally.missedComplete++;
      misses.push(`${moment.group} @${moment.cols}: ${JSON.stringify(prompt.text)}${complete ? ' (says complete)' : ''}`);
    }
  }
  const wide = widest.get(moment.group)!.labels;
  labels.forEach((label, index) => {
    tally.labels++;
    const whole = wide[index];
    if (whole !== undefined && whole !== label && whole.startsWith(label)) {
      tally.cut++;
      misses.push(`${moment.group} @${moment.cols}: label ${JSON.stringify(label)} cut`);
    }
  });
}
const sum = (kind: string) => [...tallies].filter(([key]) => key.startsWith(`${kind} `)).reduce((total, [, t]) => {
  for (const field of Object.keys(total) as (keyof Tally)[]) total[field] += t[field];
  return total;
}, empty());
const drawn = drawnAtEveryWidth();
console.log(JSON.stringify({ bench: 'prompt-text', recorded: sum('recorded'), replayed: sum('replayed'), corpus: sum('corpus'), drawn }));
for (const [key, t] of [...tallies].sort()) {
  console.log(`${key.padEnd(18)} permission prompts ${t.permissions}: whole command in prompt.text ${t.whole}, without it yet complete ${t.missedComplete}; choice labels ${t.labels}, cut ${t.cut}; prompts ${t.prompts}, complete ${t.complete}`);
}
if (process.argv.includes('--list')) for (const line of misses) console.log(`  ${line}`);

/**
 * Long and two-line commands the recordings lack, drawn as Claude Code 2.1.332 and Codex 0.171.0
 * draw their permission dialogs (test/fixtures/streams/claude/2.1.332/60x20, codex/0.171.0/60x20),
 * wrapped at 60 to 300 columns: how many prompts hold the whole command, how many labels are whole.
 */
function drawnAtEveryWidth(): { permissions: number; whole: number; labels: number; cut: number } {

  const long = 'rsync -av --delete --exclude node_modules --exclude .git ./build deploy@staging.example.com:~/releases/current --dry-run';
  const label = 'Yes, and always allow access to /tmp/corral-capture-claude-2mZnYY/project from this project';
  const tally = { permissions: 0, whole: 0, labels: 0, cut: 0 };
  for (const cols of [60, 70, 80, 100, 120, 160, 220, 300]) {
    for (const command of [['touch capture-proof.txt'], ['cd /srv/app &&', 'npm run build -- --production'], [long]]) {
      const rows = ['─'.repeat(cols), ' Bash command', ...wrap('Tip: auto mode handles these prompts for you — choose "switch to auto mode" below', cols - 1, ' '), ' Run shell command', '╌'.repeat(cols), ...command.flatMap((line) => wrap(line, cols - 1, ' ')), '╌'.repeat(cols), ' Do you want to proceed?', ' ❯ 1. Yes', ...wrap(label, cols - 1, '   2. ', '      '), '   3. No', '', ' Esc to cancel · Tab to amend'];
      const prompt = readPrompt(manifests.get('claude')!, { lines: [...rows, ''], cols, title: null, progress: null });
      tally.permissions++;
      if (prompt.text.includes(command.join('\n'))) tally.whole++;
      tally.labels++;
      if (prompt.choices[1]?.label !== label) tally.cut++;
    }
    const reason = 'Reason: Sync the build to the staging server so that the release can be checked before it goes out';
    const codexLabel = "Yes, and don't ask again for commands that start with `rsync -av --delete`";
    const rows = ['  Would you like to run the following command?', '', '  Environment: local', '', ...wrap(reason, cols - 2, '  '), '', ...wrap(`$ ${long}`, cols - 2, '  '), '', '› 1. Yes, proceed (y)', ...wrap(`${codexLabel} (p)`, cols - 2, '  2. ', '     '), '  3. No, and tell Codex what to do differently (esc)', '', '  Press enter to confirm or esc to cancel'];
    const prompt = readPrompt(manifests.get('codex')!, { lines: [...rows, ''], cols, title: null, progress: null });
    tally.permissions++;
    if (prompt.text.replace(/\s+/g, ' ').includes(`$ ${long}`)) tally.whole++;
    tally.labels++;
    if (prompt.choices[1]?.label !== codexLabel) tally.cut++;
  }
  return tally;
}
