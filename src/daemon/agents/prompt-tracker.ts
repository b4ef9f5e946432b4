import { createHash } from 'node:crypto';
import type { ReadPrompt } from '../../detect/prompt-read.ts';
import type { AgentPrompt } from '../../protocol/prompt.ts';

/**
 * Gives each prompt a pane shows its instance id: the same dialog keeps its id while the agent stays
 * blocked on it; a changed dialog, or the agent blocked anew after leaving blocked, gets a new one.
 * An answer names the id it saw (agent.answer `promptId`), so it can never land on another prompt.
 */
export class PromptTracker {
  #current: AgentPrompt | null = null;
  #fingerprint = '';
  #instances = 0;

  get current(): AgentPrompt | null {
    return this.#current;
  }

  /** The prompt read now; returns true when it is a new instance (a new id). */
  update(read: ReadPrompt): boolean {
    const fingerprint = JSON.stringify([read.kind, read.text, read.choices, read.freeText]);
    if (this.#current !== null && fingerprint === this.#fingerprint) {
      if (read.source !== this.#current.source || read.note !== this.#current.note) this.#current = { ...read, id: this.#current.id };
      return false;
    }
    this.#instances += 1;
    this.#fingerprint = fingerprint;
    const digest = createHash('sha256').update(fingerprint).digest('hex').slice(0, 8);
    this.#current = { id: `p${this.#instances}-${digest}`, ...read };
    return true;
  }

  /** The agent is not blocked: the next prompt is a new instance, even if it looks the same. */
  clear(): void {
    this.#current = null;
    this.#fingerprint = '';
  }
}
