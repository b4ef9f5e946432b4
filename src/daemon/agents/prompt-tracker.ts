import { createHash } from 'node:crypto';
import type { ReadPrompt } from '../../detect/prompt-read.ts';
import type { AgentPrompt, PromptChoice } from '../../protocol/prompt.ts';

/** What `PromptTracker.update` made of a read: a new instance, the same dialog drawn further, or nothing new. */
export type PromptUpdate = 'new' | 'drawn' | 'same';

/**
 * Gives each prompt a pane shows its instance id: the same dialog keeps its id while the agent stays
 * blocked on it; a changed dialog, or the agent blocked anew after leaving blocked, gets a new one.
 * An answer names the id it saw (agent.answer `promptId`), so it can never land on another prompt.
 *
 * A dialog read while it is still being drawn (its output split across reads, the last lines not yet
 * there) is the same dialog once the rest arrives: a read whose choices extend or cut those of the
 * current one, with the same question, keeps the id and updates what it shows.
 */
export class PromptTracker {
  #current: AgentPrompt | null = null;
  #fingerprint = '';
  #instances = 0;

  get current(): AgentPrompt | null {
    return this.#current;
  }

  /** The prompt read now. */
  update(read: ReadPrompt): PromptUpdate {
    const fingerprint = JSON.stringify([read.kind, read.text, read.choices, read.freeText]);
    const current = this.#current;
    if (current !== null && fingerprint === this.#fingerprint) {
      if (read.source !== current.source || read.note !== current.note) this.#current = { ...read, id: current.id };
      return 'same';
    }
    this.#fingerprint = fingerprint;
    if (current !== null && sameDialog(current, read)) {
      this.#current = { ...read, id: current.id };
      return 'drawn';
    }
    this.#instances += 1;
    const digest = createHash('sha256').update(fingerprint).digest('hex').slice(0, 8);
    this.#current = { id: `p${this.#instances}-${digest}`, ...read };
    return 'new';
  }

  /** The agent is not blocked: the next prompt is a new instance, even if it looks the same. */
  clear(): void {
    this.#current = null;
    this.#fingerprint = '';
  }
}

/**
 * One read is the other drawn further: the same question, and the shorter list of choices (perhaps
 * none yet) starts the longer one, its last choice perhaps cut in the middle of its line.
 */
function sameDialog(a: ReadPrompt, b: ReadPrompt): boolean {
  if (a.kind !== b.kind || a.text !== b.text || a.freeText !== b.freeText) return false;
  const [short, long] = a.choices.length <= b.choices.length ? [a.choices, b.choices] : [b.choices, a.choices];
  if (short.length === 0) return true; // the question drawn, its choices not yet
  const last = short.length - 1;
  for (let i = 0; i < last; i++) if (!sameChoice(short[i]!, long[i]!)) return false;
  // A choice's id comes from its label: a label that starts the other's is that choice, or it cut short.
  const cut = short[last]!;
  const whole = long[last]!;
  return cut.default === whole.default && sameKeys(cut.keys, whole.keys) && whole.label.startsWith(cut.label);
}

function sameChoice(a: PromptChoice, b: PromptChoice): boolean {
  return a.id === b.id && a.label === b.label && a.default === b.default && sameKeys(a.keys, b.keys);
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i]);
}
