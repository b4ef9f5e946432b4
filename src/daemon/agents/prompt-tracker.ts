import { createHash } from 'node:crypto';
import type { ReadPrompt } from '../../detect/prompt-read.ts';
import type { AgentPrompt, PromptChoice } from '../../protocol/prompt.ts';

/** What `PromptTracker.update` made of a read: a new instance, the same dialog shown otherwise, gone, or nothing new. */
export type PromptUpdate = 'new' | 'drawn' | 'gone' | 'same';

/**
 * Gives each prompt a pane shows its instance id. A prompt's identity is the dialog on the screen, as
 * a prompt reader of the manifest reads it: the same dialog keeps its id while the agent stays blocked
 * on it, whether drawn in pieces, redrawn, reflowed by a resize, or annotated by the agent's reports;
 * a changed dialog, or the agent blocked anew after leaving blocked, gets a new one. An answer names
 * the id it saw (agent.answer `promptId`), so it can never land on another prompt.
 *
 * A report's hint (OSC 7501 `kind`, a hook's message) refines what the prompt shows when no reader
 * knows the screen, and never mints an id by itself (issue 39: Claude Code's OSC 7501 `kind=permission`
 * on its folder-trust dialog made the unchanged dialog p1, p2, p3). Once an answer is typed to a dialog
 * a reader knew, a screen no reader knows is that dialog gone: a report that follows it (Gemini CLI's
 * Notification hook runs after the approval) is no prompt.
 */
export class PromptTracker {
  #current: AgentPrompt | null = null;
  /** The dialog the current id stands for, as the screen's reader read it; null when no reader knew the screen. */
  #dialog: ReadPrompt | null = null;
  #shown = '';
  #answered: string | null = null;
  /** The answer being typed, and the dialog it answered: the cursor its own keys move keeps the id meanwhile. */
  #inFlight: { id: string; dialog: ReadPrompt } | null = null;
  /** The answered prompt whose dialog left the screen: if the same dialog is drawn again, it is that prompt. */
  #gone: string | null = null;
  /** Older ids of the dialog now shown: it got a new one when its cursor moved or its selection became unknown. */
  #former = new Set<string>();
  /** Why the choices have no keys now: a key was typed into a dialog whose selection the screen does not show. */
  #unseen: string | null = null;
  #instances = 0;

  get current(): AgentPrompt | null {
    return this.#current;
  }

  /**
   * The prompt read now: `screen` as the readers read the screen alone (its identity), `read` with the
   * agent's reports applied (what the prompt says).
   */
  update(screen: ReadPrompt, read: ReadPrompt = screen): PromptUpdate {
    const current = this.#current;
    const known = isReaderRead(screen);
    if (current === null) {
      if (this.#answered !== null && !known) return 'same'; // still no dialog after the answer: no prompt
      const gone = this.#gone;
      if (gone !== null && known && this.#dialog !== null && (fingerprint(screen) === fingerprint(this.#dialog) || sameDialog(this.#dialog, screen))) {
        // The answered dialog drawn again (a frame without it between, or the answer not taken): its id.
        this.#gone = null;
        this.#dialog = screen;
        this.#current = { ...read, id: gone };
        this.#shown = JSON.stringify(read);
        return 'drawn';
      }
      return this.#mint(screen, read, known);
    }
    const shown = this.#unseen === null ? read : withoutKeys(read, this.#unseen);
    const answered = this.#answered !== null && this.knows(this.#answered);
    if (!known) {
      if (answered && this.#dialog !== null) {
        this.#gone = current.id;
        this.#current = null;
        return 'gone';
      }
      return this.#show(current.id, shown);
    }
    if (this.#dialog === null) {
      // A reader knows the screen now: the dialog the reports announced, drawn; unless it was answered.
      if (answered) return this.#mint(screen, read, known);
      this.#dialog = screen;
      this.#show(current.id, shown);
      return 'drawn';
    }
    if (fingerprint(screen) === fingerprint(this.#dialog)) return this.#show(current.id, shown);
    if (sameDialog(this.#dialog, screen, !answered)) {
      this.#dialog = screen;
      this.#show(current.id, shown);
      return 'drawn';
    }
    if (sameChoices(this.#dialog, screen)) {
      if (this.#inFlight?.id === current.id) {
        // An answer's Down drawn before its Enter: the dialog is being answered, under its id.
        this.#dialog = screen;
        this.#show(current.id, shown);
        return 'drawn';
      }
      return this.#moved(screen, read);
    }
    return this.#mint(screen, read, known);
  }

  /**
   * The answer typed to prompt `id` has its reply: if the cursor its keys moved stays where they left
   * it (an answer of `Down` alone), the dialog gets the new id a moved cursor gets.
   */
  answerEnded(id: string): PromptUpdate {
    const flight = this.#inFlight;
    if (flight?.id !== id) return 'same';
    this.#inFlight = null;
    const current = this.#current;
    if (current?.id !== id || this.#dialog === null || fingerprint(this.#dialog) === fingerprint(flight.dialog)) return 'same';
    const { id: _id, ...read } = current;
    return this.#moved(this.#dialog, read);
  }

  /** The cursor moved: keys such as Enter now pick another choice, so it is a new id, of the same dialog. */
  #moved(screen: ReadPrompt, read: ReadPrompt): PromptUpdate {
    const former = [...this.#former, this.#current!.id];
    const update = this.#mint(screen, read, true);
    for (const id of former) this.#former.add(id);
    return update;
  }

  /**
   * A key was typed into the dialog shown, whose selection the screen does not show (`note` says so):
   * the keys read for its choices assumed the selection it opened with, and may now pick another
   * choice. The dialog gets a new id, its choices no keys, until another dialog is shown.
   */
  selectionUnknown(note: string): PromptUpdate {
    const current = this.#current;
    if (current === null || this.#unseen !== null) return 'same';
    this.#unseen = note;
    this.#former.add(current.id);
    const { id: _id, ...read } = current;
    this.#instances += 1;
    const shown = withoutKeys(read, note);
    this.#current = { id: `p${this.#instances}-${createHash('sha256').update(JSON.stringify(shown)).digest('hex').slice(0, 8)}`, ...shown };
    this.#shown = JSON.stringify(shown);
    return 'new';
  }

  /** Whether prompt `id` is the dialog shown now, under its id or an older one (before its cursor moved, or its selection became unknown). */
  knows(id: string): boolean {
    return this.#current?.id === id || this.#former.has(id);
  }

  /** Whether `screen` (a read of the screen alone) still shows the dialog of prompt `id`, its cursor perhaps moved. */
  shows(id: string, screen: ReadPrompt): boolean {
    if (!this.knows(id) || this.#dialog === null || !isReaderRead(screen)) return false;
    return fingerprint(screen) === fingerprint(this.#dialog) || sameDialog(this.#dialog, screen) || sameChoices(this.#dialog, screen);
  }

  /** Whether the prompt `id` was read from a dialog a reader knows (else only reports told of it). */
  readFromScreen(id: string): boolean {
    return this.knows(id) && this.#dialog !== null;
  }

  /** An answer was typed to prompt `id`: what the screen shows next is judged against it. */
  answered(id: string): void {
    if (!this.knows(id)) return;
    this.#answered = id;
    if (this.#current?.id === id && this.#dialog !== null) this.#inFlight = { id, dialog: this.#dialog };
  }

  /** The agent is not blocked: the next prompt is a new instance, even if it looks the same. */
  clear(): void {
    this.#current = null;
    this.#dialog = null;
    this.#shown = '';
    this.#answered = null;
    this.#inFlight = null;
    this.#gone = null;
    this.#former.clear();
    this.#unseen = null;
  }

  #mint(screen: ReadPrompt, shown: ReadPrompt, known: boolean): PromptUpdate {
    this.#instances += 1;
    const digest = createHash('sha256').update(fingerprint(screen)).digest('hex').slice(0, 8);
    this.#current = { id: `p${this.#instances}-${digest}`, ...shown };
    this.#dialog = known ? screen : null;
    this.#shown = JSON.stringify(shown);
    this.#answered = null;
    this.#inFlight = null;
    this.#gone = null;
    this.#former.clear();
    this.#unseen = null;
    return 'new';
  }

  /** Shows `shown` under the id kept: 'drawn' when it differs from what was shown, else 'same'. */
  #show(id: string, shown: ReadPrompt): PromptUpdate {
    const text = JSON.stringify(shown);
    if (text === this.#shown) return 'same';
    this.#shown = text;
    this.#current = { ...shown, id };
    return 'drawn';
  }
}

const SELECTION_KEYS = new Set(['Enter', 'Left', 'Right', 'Up', 'Down']);

/** The read with no keys for the choices its selection picks (Escape still cancels), and none the default. */
function withoutKeys(read: ReadPrompt, note: string): ReadPrompt {
  const choices = read.choices.map((choice) => (choice.keys.some((key) => SELECTION_KEYS.has(key)) ? { ...choice, keys: [], default: false } : choice));
  return { ...read, choices, note };
}

/** A read of a dialog a prompt reader knows (`screen:<reader id>`), not a report's or the bare screen's. */
function isReaderRead(read: ReadPrompt): boolean {
  return read.source.startsWith('screen:');
}

/**
 * The dialog as its identity: its reader, kind, question and choices, with the question's white space
 * left out, so a dialog wrapped at another width (a resize, a reflow) is the same dialog. A choice is
 * its id, keys and cursor: a mark drawn beside a label (Claude Code 2.1.197 ticks the choice taken,
 * `Yes, I trust this folder ✔`) leaves its id as it was.
 */
function fingerprint(read: ReadPrompt): string {
  return JSON.stringify([read.source, read.kind, flat(read.text), read.choices.map((c) => [c.id, c.keys, c.default]), read.freeText]);
}

/** The same question and the same choices in the same order, the cursor perhaps elsewhere. */
function sameChoices(a: ReadPrompt, b: ReadPrompt): boolean {
  if (a.source !== b.source || a.kind !== b.kind || flat(a.text) !== flat(b.text) || a.freeText !== b.freeText) return false;
  return a.choices.length === b.choices.length && a.choices.every((choice, i) => choice.id === b.choices[i]!.id);
}

function flat(text: string): string {
  return text.replace(/\s+/g, '');
}

/**
 * One read is the other drawn further: the same reader and question, and the shorter list of choices
 * (perhaps none yet) starts the longer one, its last choice perhaps cut in the middle of its line.
 * With `lines`, a question with lines missing is the same one drawn further (Gemini CLI 0.61 at 60x20
 * draws its command's line after the question), unless an answer was typed since.
 */
function sameDialog(a: ReadPrompt, b: ReadPrompt, lines = false): boolean {
  if (a.source !== b.source || a.kind !== b.kind || a.freeText !== b.freeText) return false;
  if (flat(a.text) !== flat(b.text) && !(lines && linesWithin(a.text, b.text))) return false;
  const [short, long] = a.choices.length <= b.choices.length ? [a.choices, b.choices] : [b.choices, a.choices];
  if (short.length === 0) return true; // the question drawn, its choices not yet
  const last = short.length - 1;
  for (let i = 0; i < last; i++) if (!sameChoice(short[i]!, long[i]!)) return false;
  // A choice's id comes from its label: a label that starts the other's is that choice, or it cut short.
  const cut = short[last]!;
  const whole = long[last]!;
  return cut.default === whole.default && sameKeys(cut.keys, whole.keys) && whole.label.startsWith(cut.label);
}

/** The lines of one text are those of the other, in order, with some missing. */
function linesWithin(a: string, b: string): boolean {
  const [few, many] = [a, b].map((text) => text.split('\n').map(flat).filter((line) => line !== '')).sort((x, y) => x.length - y.length) as [string[], string[]];
  if (few.length === 0) return false;
  let at = 0;
  for (const line of many) if (at < few.length && line === few[at]) at += 1;
  return at === few.length;
}

function sameChoice(a: PromptChoice, b: PromptChoice): boolean {
  return a.id === b.id && a.default === b.default && sameKeys(a.keys, b.keys);
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i]);
}
