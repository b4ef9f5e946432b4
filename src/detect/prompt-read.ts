import type { AgentPrompt, PromptChoice, PromptKind } from '../protocol/prompt.ts';
import type { CompiledManifest } from './compiled.ts';
import { footerHints } from './prompt-footer.ts';
import { keyOfHint } from './prompt-keys.ts';
import type { CompiledPromptReader, ChoiceMatch } from './prompt-compile.ts';
import type { PromptSelect } from './prompt-spec.ts';
import { RegionReader } from './regions.ts';
import type { RegionSpec } from './region-spec.ts';
import { isBlank, isHorizontalRule } from './screen-structure.ts';
import type { DetectInput } from './types.ts';

/** A prompt as read, before the daemon gives the instance its id. */
export type ReadPrompt = Omit<AgentPrompt, 'id'>;

/** What the agent itself said of its prompt: OSC 7501's `kind`, a hook payload's tool and input. */
export interface PromptHint {
  kind?: PromptKind;
  text?: string;
  /** The report it came from (`report:osc7501`, `report:hook:claude`). */
  source: string;
}

const MAX_LINE = 200;
const MAX_CHOICES = 16;
const MAX_ID = 40;
/** Box sides and scroll bars around a dialog's lines (Gemini nests boxes; Cline and Copilot draw a bar at the right). */
const LEFT_EDGE = /^\s*[│┃║]\s?/;
const RIGHT_EDGE = /\s?[│┃║█]\s*$/;
const NO_READER = 'no prompt reader of the manifest knows this dialog; read the screen and answer with keys';

/**
 * Reads the prompt a blocked agent shows: of the manifest's readers (`[[prompts]]`) whose dialog is on
 * the screen, the one whose dialog starts lowest, the newest (an answered dialog can stay drawn above
 * the next one); ties go to file order. Without one, what the agent reported (`hint`), or an `other`
 * prompt with no choices that says why. Pure, like evaluate.
 */
export function readPrompt(manifest: CompiledManifest, input: DetectInput, hint: PromptHint | null = null): ReadPrompt {
  const reader = new RegionReader(input);
  const lines = new Map<string, DialogLines>();
  let best: { read: ReadPrompt; start: number } | null = null;
  for (const compiled of manifest.prompts) {
    const name = compiled.spec.region.name;
    let cut = lines.get(name);
    if (!cut) lines.set(name, (cut = dialogLines(reader, compiled.spec.region)));
    const found = readWith(compiled, cut);
    if (found !== null && (best === null || found.start > best.start)) best = found;
  }
  if (best !== null) {
    // The reader knows its dialog's kind: a report's never overrides it (issue 39: Claude Code's OSC 7501 says permission on its trust dialog).
    const { read } = best;
    if (read.text === '' && hint?.text !== undefined) read.text = hint.text;
    return read;
  }
  return {
    kind: hint?.kind ?? 'other',
    text: hint?.text ?? '',
    choices: [],
    freeText: false,
    note: manifest.prompts.length === 0 ? `manifest ${manifest.spec.id} has no prompt readers; read the screen and answer with keys` : NO_READER,
    source: hint?.source ?? 'screen',
  };
}

/** The reader's prompt, with the screen row its dialog starts on; null when its dialog is not on the screen. */
/** A region's lines as readers read them, cut once per screen for every reader of that region. */
interface DialogLines {
  /** Box sides stripped, indentation kept (choices). */
  indented: string[];
  /** Trimmed, as drawn (footers: runs of spaces separate hints). */
  drawn: string[];
  /** Trimmed, runs of spaces as one (start, when, text). */
  region: string[];
  rows: readonly number[];
}

function dialogLines(reader: RegionReader, spec: RegionSpec): DialogLines {
  const view = reader.get(spec);
  const indented = view.lines.map(innerText);
  const drawn = indented.map((line) => line.trim());
  return { indented, drawn, region: drawn.map((line) => line.replace(/\s+/g, ' ')), rows: view.firstRows };
}

function readWith(compiled: CompiledPromptReader, cut: DialogLines): { read: ReadPrompt; start: number } | null {
  const { spec } = compiled;
  const { indented, drawn, region, rows } = cut;
  let first = 0;
  if (compiled.start) {
    first = -1;
    for (let i = region.length - 1; i >= 0; i--) {
      if (compiled.start.test(region[i]!)) {
        first = i;
        break;
      }
    }
    if (first < 0) return null;
  }
  let dialog = region.slice(first);
  const dialogDrawn = drawn.slice(first);
  const dialogIndented = indented.slice(first);
  if (!compiled.when.every((pattern) => dialog.some((line) => pattern.test(line)))) return null;

  let footer: string | null = null;
  if (compiled.footer) {
    for (let i = dialog.length - 1; i > 0; i--) {
      if (compiled.footer.test(dialog[i]!)) {
        footer = dialogDrawn[i]!;
        dialog = dialog.slice(0, i);
        break;
      }
    }
  }

  const menu: { match: ChoiceMatch; line: number }[] = [];
  if (compiled.choice) {
    dialog.forEach((_, index) => {
      for (const match of compiled.choice!.matchAll(dialogIndented[index]!)) if (match.label !== undefined && match.label.trim() !== '') menu.push({ match, line: index });
    });
  }
  const textEnd = menu.length > 0 ? menu[0]!.line : dialog.length;
  // A run of four spaces ends a line's text: what stands right of it is beside the dialog (OpenCode's sidebar).
  const textLines = dialogDrawn.slice(0, textEnd).map((line) => line.split(/\s{4,}/)[0]!.replace(/\s+/g, ' '));
  const text = textOf(textLines, compiled, spec.textLines);

  const choices = menuChoices(menu.map((entry) => entry.match), spec.select);
  if (footer !== null) {
    for (const hint of footerHints(footer)) {
      const label = hint.label.toLowerCase();
      if (spec.footerIgnore.some((ignored) => label.startsWith(ignored))) continue;
      if (choices.some((choice) => choice.keys.length === 1 && choice.keys[0] === hint.key)) continue;
      choices.push({ id: '', label: hint.label, keys: [hint.key], default: false });
    }
    if (!choices.some((choice) => choice.default)) {
      const enter = choices.find((choice) => choice.keys.length === 1 && choice.keys[0] === 'Enter');
      if (enter) enter.default = true;
    }
  }
  const limited = choices.slice(0, MAX_CHOICES);
  assignIds(limited);
  const note = spec.note ?? (limited.length > 0 ? null : spec.freeText ? 'a free-text question: answer with text' : NO_READER);
  return { read: { kind: spec.kind, text, choices: limited, freeText: spec.freeText, note, source: `screen:${spec.id}` }, start: rows[first] ?? first };
}

/** A dialog line without its box sides or a scroll bar. */
function innerText(line: string): string {
  let text = line;
  for (let i = 0; i < 3 && (LEFT_EDGE.test(text) || RIGHT_EDGE.test(text)); i++) text = text.replace(LEFT_EDGE, '').replace(RIGHT_EDGE, '');
  return text.trimEnd();
}

function textOf(lines: string[], compiled: CompiledPromptReader, max: number): string {
  const kept = lines.filter((line) => !isBlank(line) && !isHorizontalRule(line) && !isBoxEdge(line) && !compiled.textSkip.some((pattern) => pattern.test(line)) && (compiled.textKeep.length === 0 || compiled.textKeep.some((pattern) => pattern.test(line))));
  // Over the limit, the first lines (the tool, the command) and the last (the question, nearest the choices) stay.
  const cut = kept.length <= max ? kept : max < 3 ? kept.slice(0, max) : [...kept.slice(0, max - 1), kept[kept.length - 1]!];
  return cut.map((line) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line)).join('\n');
}

/** A box's top or bottom edge with a title cut into it, or a dashed rule shorter than a horizontal rule. */
function isBoxEdge(line: string): boolean {
  return /^[╭╰┌└][─━]*[╮╯┐┘]?$/.test(line) || /^[─━╌┄▄▀]+$/.test(line);
}

function menuChoices(matches: ChoiceMatch[], select: PromptSelect): PromptChoice[] {
  const marked = matches.findIndex((match) => match.cursor !== undefined && match.cursor.trim() !== '');
  // A row whose selection the screen does not show has its first button selected when it opens (OpenCode 1.18.33).
  const cursor = marked < 0 && select === 'row' && matches.length > 0 ? 0 : marked;
  const [back, next] = select === 'row' ? ['Left', 'Right'] : ['Up', 'Down'];
  return matches.map((match, index) => {
    const label = match.label!.trim().replace(/\s+/g, ' ');
    const hinted = match.key !== undefined ? keyOfHint(match.key) : null;
    let keys: string[] = [];
    if (hinted !== null) keys = [hinted];
    else if (select === 'number' && match.number !== undefined) keys = [match.number];
    else if (cursor >= 0) {
      const step = index - cursor;
      keys = [...Array<string>(Math.abs(step)).fill(step > 0 ? next! : back!), 'Enter'];
    }
    return { id: '', label, keys, default: index === cursor };
  });
}

/** Ids from labels: lower case, words joined by `-`; a second use of one gets `-2`. */
function assignIds(choices: PromptChoice[]): void {
  const used = new Set<string>();
  for (const choice of choices) {
    const slug = choice.label.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
    // A long label is cut after its last whole word within the limit.
    const cut = slug.length <= MAX_ID ? slug : slug.slice(0, MAX_ID + 1).replace(/-[^-]*$/, '') || slug.slice(0, MAX_ID);
    const base = cut || 'choice';
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    choice.id = id;
  }
}
