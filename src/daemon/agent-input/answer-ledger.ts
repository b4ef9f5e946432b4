import type { AnswerResult } from '../../protocol/methods/agent-act.ts';

/** How many answers a pane remembers: a retry comes soon after the request it repeats. */
const REMEMBERED = 32;

/**
 * The answers typed into one pane, by prompt id and answer: a request repeated (a retry after a
 * lost reply) gets the first one's outcome and types nothing. Oldest forgotten first.
 */
export class AnswerLedger {
  readonly #outcomes = new Map<string, Promise<AnswerResult>>();

  static key(promptId: string, answer: { choice?: number | string; keys?: string[]; text?: string }): string {
    return JSON.stringify([promptId, answer.choice ?? null, answer.keys ?? null, answer.text ?? null]);
  }

  get(key: string): Promise<AnswerResult> | undefined {
    return this.#outcomes.get(key);
  }

  remember(key: string, outcome: Promise<AnswerResult>): void {
    outcome.catch(() => undefined); // the caller handles it; a repeat gets the same rejection
    this.#outcomes.set(key, outcome);
    while (this.#outcomes.size > REMEMBERED) this.#outcomes.delete(this.#outcomes.keys().next().value!);
  }
}
