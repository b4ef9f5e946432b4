// Prompt ids per dialog on the recorded streams (issue 39; goal: no id change while a dialog stays on
// screen). Each capture is replayed through the headless screen; after every piece of output the
// screen is judged (blocked: a rule says so, or no rule matched and the last OSC 7501 says so), and
// while blocked the prompt is read and tracked as the daemon does (src/daemon/agents/pane-agent.ts):
// the screen alone gives the identity, the OSC 7501 kind refines it. A change of id while the screen's
// dialog (reader, question without white space, choice ids, cursor) stays the same is spurious.
// Run: node --import tsx bench/prompt-ids.ts   (prints one JSON line, then a line per agent)
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCapture } from '../src/cli/offline/capture.ts';
import { replayCapture } from '../src/cli/offline/replay-stream.ts';
import { evaluate } from '../src/detect/evaluate.ts';
import { readPrompt, type PromptHint, type ReadPrompt } from '../src/detect/prompt-read.ts';
import { hintFromProgramStatus } from '../src/detect/prompt-hint.ts';
import { ScreenMemory } from '../src/detect/screen-memory.ts';
import { ManifestSet } from '../src/manifest-store/manifest-set.ts';
import { PromptTracker } from '../src/daemon/agents/prompt-tracker.ts';
import { parseOsc7501 } from '../src/terminal/osc-parse.ts';

const STREAMS = fileURLToPath(new URL('../test/fixtures/streams/', import.meta.url));
/** The stream folders named otherwise than their manifest. */
const AGENT_OF: Record<string, string> = { 'claude-code': 'claude' };
const OSC_7501 = /\x1b\]7501;([^\x07\x1b]*)(?:\x07|\x1b\\)/g;

function casts(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return casts(path);
    return entry.endsWith('.cast') ? [path] : [];
  });
}

/** The dialog as the screen shows it, white space left out: a moved cursor is another dialog (Enter picks another choice). */
function dialogOf(read: ReadPrompt): string {
  return JSON.stringify([read.source, read.text.replace(/\s+/g, ''), read.choices.map((choice) => [choice.id, choice.default])]);
}

interface Tally {
  casts: number;
  spells: number;
  dialogs: number;
  idChanges: number;
  spurious: number;
}

const manifests = new ManifestSet({ userDir: null, catalogDir: null });
const tallies = new Map<string, Tally>();
for (const file of casts(STREAMS).sort()) {
  const folder = relative(STREAMS, file).split('/')[0]!;
  const manifest = manifests.get(AGENT_OF[folder] ?? folder);
  if (!manifest) continue;
  const capture = readCapture(file);
  const tally = tallies.get(manifest.spec.id) ?? { casts: 0, spells: 0, dialogs: 0, idChanges: 0, spurious: 0 };
  tallies.set(manifest.spec.id, tally);
  tally.casts += 1;
  // The OSC 7501 reports of the capture, by the output offset where each ends.
  const reports: { end: number; state: string; hint: PromptHint | null }[] = [];
  let offset = 0;
  for (const chunk of capture.chunks) {
    if (chunk.kind !== 'output') continue;
    const text = chunk.data.toString('latin1');
    for (const match of text.matchAll(OSC_7501)) {
      const parsed = parseOsc7501(match[1]!);
      if (parsed?.kind === 'status') reports.push({ end: offset + match.index + match[0].length, state: parsed.value.state, hint: parsed.value.state === 'blocked' ? hintFromProgramStatus(parsed.value.fields) : null });
    }
    offset += chunk.data.length;
  }
  const tracker = new PromptTracker();
  const memory = new ScreenMemory();
  let reported = 'clear';
  let hint: PromptHint | null = null;
  let blocked = false;
  let lastId: string | null = null;
  let lastDialog: string | null = null;
  await replayCapture(capture, [], { cols: capture.cols ?? 120, rows: capture.rows ?? 32 }, {
    point: () => undefined,
    output: (input, fed) => {
      while (reports.length > 0 && reports[0]!.end <= fed) {
        const report = reports.shift()!;
        reported = report.state;
        hint = report.hint;
      }
      const verdict = evaluate(manifest, input, memory);
      const nowBlocked = verdict.state === 'blocked' || (verdict.rule === null && reported === 'blocked');
      if (!nowBlocked) {
        blocked = false;
        tracker.clear();
        lastId = null;
        lastDialog = null;
        return;
      }
      if (!blocked) tally.spells += 1;
      blocked = true;
      const screen = readPrompt(manifest, input, null);
      tracker.update(screen, hint === null ? screen : readPrompt(manifest, input, hint));
      const id = tracker.current?.id ?? null;
      const dialog = dialogOf(screen);
      if (dialog !== lastDialog) tally.dialogs += 1;
      if (lastId !== null && id !== null && id !== lastId) {
        tally.idChanges += 1;
        if (dialog === lastDialog) tally.spurious += 1;
      }
      if (id !== null) lastId = id;
      lastDialog = dialog;
    },
  });
}
const total = [...tallies.values()].reduce((sum, t) => ({ casts: sum.casts + t.casts, spells: sum.spells + t.spells, dialogs: sum.dialogs + t.dialogs, idChanges: sum.idChanges + t.idChanges, spurious: sum.spurious + t.spurious }));
console.log(JSON.stringify({ total, agents: Object.fromEntries(tallies) }));
for (const [agent, t] of tallies) console.log(`${agent}: ${t.casts} captures, ${t.spells} blocked spells, ${t.dialogs} dialogs drawn, ${t.idChanges} id changes, ${t.spurious} of them with the dialog unchanged`);
