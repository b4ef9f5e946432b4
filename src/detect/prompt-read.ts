import type { AgentPrompt, ChoiceRole, PromptChoice, PromptKind } from '../protocol/prompt.ts';
import type { CompiledManifest } from './compiled.ts';
import { textCells } from '../base/cells.ts';
import { footerHints } from './prompt-footer.ts';
import { joinDialogRows, type DialogRow } from './prompt-lines.ts';
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

/** Longer text lines are cut: a command this long is rare, and a screen of text is not a question. */
const MAX_LINE = 1000;
const ELLIPSIS = '…';
const MAX_CHOICES = 16;
const MAX_ID = 40;
/** Box sides and scroll bars around a dialog's lines (Gemini nests boxes; Cline and Copilot draw a bar at the right). */
const LEFT_EDGE = /^\s*[│┃║]\s?/;
const RIGHT_EDGE = /\s?[│┃║█]\s*$/;
const RIGHT_SIDES = '│┃║█';
const NO_READER = 'no prompt reader of the manifest knows this dialog; read the screen and answer with keys';
const NOT_READ = 'no prompt reader read this dialog from the screen';

/**
 * Reads the prompt a blocked agent shows: of the manifest's readers (`[[prompts]]`) whose dialog is on
 * the screen, the one whose dialog starts lowest, the newest (an answered dialog can stay drawn above
 * the next one); ties go to file order. A reader for a dialog seen only in part (`incomplete`) reads
 * only when no other does. Without one, what the agent reported (`hint`), or an `other` prompt with
 * no choices that says why. Pure, like evaluate.
 */
export function readPrompt(manifest: CompiledManifest, input: DetectInput, hint: PromptHint | null = null): ReadPrompt {
  const reader = new RegionReader(input);
  // A saved screen does not know its width: its rows are not joined where the agent wrapped them.
  const width = input.cols ?? Number.POSITIVE_INFINITY;
  const lines = new Map<string, DialogRows>();
  let best: { read: ReadPrompt; start: number } | null = null;
  for (const partial of [false, true]) {
    if (best !== null) break;
    for (const compiled of manifest.prompts) {
      if ((compiled.spec.incomplete !== null) !== partial) continue;
      const name = compiled.spec.region.name;
      let cut = lines.get(name);
      if (!cut) lines.set(name, (cut = dialogRows(reader, compiled.spec.region, input.wrapped ?? [])));
      const found = readWith(compiled, cut, width, input.lines.length);
      if (found !== null && (best === null || found.start > best.start)) best = found;
    }
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
    complete: false,
    incomplete: hint?.text !== undefined ? `${NOT_READ}; the text is what the agent reported` : NOT_READ,
  };
}

/** A region's rows as readers read them, cut once per screen for every reader of that region. */
interface DialogRows {
  rows: DialogRow[];
  /** Trimmed, runs of spaces as one (start). */
  region: string[];
  /** Each row's screen row; -1 where the region took it from elsewhere. */
  screenRows: readonly number[];
}

function dialogRows(reader: RegionReader, spec: RegionSpec, wrapped: readonly boolean[]): DialogRows {
  const view = reader.get(spec);
  const screenRows = view.firstRows;
  const rows = view.lines.map((line, i): DialogRow => {
    const row = screenRows[i] ?? -1;
    const soft = i > 0 && row > 0 && screenRows[i - 1] === row - 1 && wrapped[row] === true;
    return { indented: innerText(line), end: textEnd(line), soft, spaceAtEnd: /\s$/.test(line) };
  });
  return { rows, region: rows.map((row) => collapse(row.indented)), screenRows };
}

function readWith(compiled: CompiledPromptReader, cut: DialogRows, width: number, screenHeight: number): { read: ReadPrompt; start: number } | null {
  const { spec } = compiled;
  let first = 0;
  if (compiled.start) {
    first = -1;
    for (let i = cut.region.length - 1; i >= 0; i--) {
      if (compiled.start.test(cut.region[i]!)) {
        first = i;
        break;
      }
    }
    if (first < 0) return null;
  }
  // `start` and `when` are matched on rows, as drawn: a reader that does not apply costs no joining.
  const region = cut.region.slice(first);
  if (!compiled.when.every((pattern) => region.some((line) => pattern.test(line)))) return null;
  const rows = cut.rows.slice(first);
  const rowChoices: (ChoiceMatch[] | undefined)[] = [];
  const choicesOfRow = (index: number): ChoiceMatch[] => (rowChoices[index] ??= labelled(compiled, rows[index]!.indented));
  const joined = joinDialogRows(rows, width, (index) => {
    if (choicesOfRow(index).length > 0) return 'choice';
    return compiled.footer?.test(region[index]!) ? 'footer' : null;
  });
  const indented = joined.map((line) => line.indented);
  const drawn = indented.map((line) => line.trim());
  let dialog = drawn.map((line) => line.replace(/\s+/g, ' '));

  let footer: string | null = null;
  if (compiled.footer) {
    for (let i = dialog.length - 1; i > 0; i--) {
      if (compiled.footer.test(dialog[i]!)) {
        footer = drawn[i]!;
        dialog = dialog.slice(0, i);
        break;
      }
    }
  }

  const menu: { match: ChoiceMatch; line: number }[] = [];
  dialog.forEach((_, index) => {
    const line = joined[index]!;
    // A line of one row was matched as that row.
    const matches = line.row === line.lastRow ? choicesOfRow(line.row) : labelled(compiled, line.indented);
    for (const match of matches) menu.push({ match, line: index });
  });
  const textEndLine = menu.length > 0 ? menu[0]!.line : dialog.length;
  // A run of four spaces ends a line's text: what stands right of it is beside the dialog (OpenCode's sidebar).
  const textLines = drawn.slice(0, textEndLine).map((line) => line.split(/\s{4,}/)[0]!.replace(/\s+/g, ' '));
  const missing: string[] = [];
  if (spec.incomplete !== null) missing.push(spec.incomplete);
  const text = textOf(textLines, compiled, spec.textLines, missing);

  const choices = menuChoices(menu.map((entry) => entry.match), spec.select);
  if (footer !== null) {
    for (const hint of footerHints(footer)) {
      const label = hint.label.toLowerCase();
      if (spec.footerIgnore.some((ignored) => label.startsWith(ignored))) continue;
      if (choices.some((choice) => choice.keys.length === 1 && choice.keys[0] === hint.key)) continue;
      choices.push({ id: '', label: hint.label, keys: [hint.key], default: false, role: 'other' });
    }
    if (!choices.some((choice) => choice.default)) {
      const enter = choices.find((choice) => choice.keys.length === 1 && choice.keys[0] === 'Enter');
      if (enter) enter.default = true;
    }
  }
  const limited = choices.slice(0, MAX_CHOICES);
  assignIds(limited);
  for (const choice of limited) choice.role = roleOf(compiled, choice.label);
  if (compiled.footer && footer === null) missing.push('its footer is not drawn: the dialog is cut at the bottom of the screen or not drawn to its end yet');
  if (!compiled.footer && compiled.choice && menu.length === 0 && !spec.freeText) missing.push('none of its choices is drawn yet');
  if (!compiled.footer && menu.length > 0) {
    const lastRow = cut.screenRows[first + joined[menu[menu.length - 1]!.line]!.lastRow] ?? -1;
    if (lastRow >= screenHeight - 1) missing.push('its last choice is on the bottom row of the screen: more of it may be below');
  }
  if (choices.length > MAX_CHOICES) missing.push(`it offers ${choices.length} choices, of which the first ${MAX_CHOICES} are listed`);
  if (limited.some((choice) => choice.label.length >= MAX_LINE)) missing.push(`a choice's label is longer than ${MAX_LINE} characters and is cut`);
  else if (limited.some((choice) => choice.label.endsWith(ELLIPSIS))) missing.push('the agent drew a choice cut short (…)');
  const note = spec.note ?? (limited.length > 0 ? null : spec.freeText ? 'a free-text question: answer with text' : NO_READER);
  const read: ReadPrompt = { kind: spec.kind, text, choices: limited, freeText: spec.freeText, note, source: `screen:${spec.id}`, complete: missing.length === 0, incomplete: missing.length === 0 ? null : missing.join('; ') };
  return { read, start: cut.screenRows[first] ?? first };
}

/** The reader's choices on a line: matches with a label. */
function labelled(compiled: CompiledPromptReader, line: string): ChoiceMatch[] {
  if (!compiled.choice) return [];
  return compiled.choice.matchAll(line).filter((match) => match.label !== undefined && match.label.trim() !== '');
}

/** A dialog line without its box sides or a scroll bar. */
function innerText(line: string): string {
  let text = line;
  for (let i = 0; i < 3 && (LEFT_EDGE.test(text) || RIGHT_EDGE.test(text)); i++) text = text.replace(LEFT_EDGE, '').replace(RIGHT_EDGE, '');
  return text.trimEnd();
}

/** Cells from a row's left edge to the end of its text: right box sides, and what stands beyond a run of four spaces (a sidebar), left out. */
function textEnd(line: string): number {
  let end = line.length;
  const blank = () => {
    while (end > 0 && /\s/.test(line[end - 1]!)) end--;
  };
  blank();
  for (let i = 0; i < 3 && end > 0 && RIGHT_SIDES.includes(line[end - 1]!); i++) {
    end--;
    blank();
  }
  let lead = 0;
  while (lead < end && /\s/.test(line[lead]!)) lead++;
  const gap = line.slice(lead, end).search(/\s{4,}\S/);
  return textCells(line.slice(0, gap < 0 ? end : lead + gap));
}

function collapse(line: string): string {
  return line.trim().replace(/\s+/g, ' ');
}

function textOf(lines: string[], compiled: CompiledPromptReader, max: number, missing: string[]): string {
  const kept = lines.filter((line) => !isBlank(line) && !isHorizontalRule(line) && !isBoxEdge(line) && !compiled.textSkip.some((pattern) => pattern.test(line)) && (compiled.textKeep.length === 0 || compiled.textKeep.some((pattern) => pattern.test(line))));
  // Over the limit, the first lines (the tool, the command) and the last (the question, nearest the choices) stay.
  const cut = kept.length <= max ? kept : max < 3 ? kept.slice(0, max) : [...kept.slice(0, max - 1), kept[kept.length - 1]!];
  if (cut.length < kept.length) missing.push(`${kept.length - cut.length} of its ${kept.length} lines of text are left out (text_lines = ${max})`);
  if (cut.some((line) => line.length > MAX_LINE)) missing.push(`a line of its text is longer than ${MAX_LINE} characters and is cut`);
  if (cut.some((line) => line.endsWith(ELLIPSIS))) missing.push('the agent drew a line of its text cut short (…)');
  return cut.map((line) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}${ELLIPSIS}` : line)).join('\n');
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
    const whole = match.label!.trim().replace(/\s+/g, ' ');
    const label = whole.length > MAX_LINE ? `${whole.slice(0, MAX_LINE - 1)}${ELLIPSIS}` : whole;
    const hinted = match.key !== undefined ? keyOfHint(match.key) : null;
    let keys: string[] = [];
    if (hinted !== null) keys = [hinted];
    else if (select === 'number' && match.number !== undefined) keys = [match.number];
    else if (cursor >= 0) {
      const step = index - cursor;
      keys = [...Array<string>(Math.abs(step)).fill(step > 0 ? next! : back!), 'Enter'];
    }
    return { id: '', label, keys, default: index === cursor, role: 'other' as const };
  });
}

/** A choice's role by the reader's patterns: the riskier reading first, so a label that also allows more is never `allow-once`. */
function roleOf(compiled: CompiledPromptReader, label: string): ChoiceRole {
  const { allowAlways, deny, allowOnce } = compiled.roles;
  if (allowAlways?.test(label)) return 'allow-always';
  if (deny?.test(label)) return 'deny';
  if (allowOnce?.test(label)) return 'allow-once';
  return 'other';
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
