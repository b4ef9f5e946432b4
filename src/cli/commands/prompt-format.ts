import type { AgentPrompt, PromptChoice } from '../../protocol/prompt.ts';
import { UsageError } from '../print-error.ts';

/** The prompt on one line, as `get` and `top` show it: `permission: Bash command · rm -rf build/ · Do you want to proceed?`. */
export function questionLine(prompt: AgentPrompt): string {
  const text = prompt.text.split('\n').filter((line) => line.trim() !== '').join(' · ');
  return `${prompt.kind}: ${text || '(no text read)'}`;
}

/** The choices on one line: `yes [1]*, no [Escape]`; `*` marks the default. */
export function choicesLine(prompt: AgentPrompt): string {
  if (prompt.choices.length === 0) return prompt.freeText ? 'free text (answer with --text)' : `none (${prompt.note ?? 'no choices read'})`;
  const choices = prompt.choices.map((choice) => `${choice.id} [${choice.keys.join(' ') || 'no key'}]${choice.default ? '*' : ''}`).join(', ');
  return prompt.freeText ? `${choices}; or free text (--text)` : choices;
}

/**
 * The choice a person named: its id, the number or letter that picks it, or a label prefix (case
 * insensitive) that only one choice has; null when the prompt has no such choice.
 */
export function findChoice(prompt: AgentPrompt, words: string): PromptChoice | null {
  const wanted = words.trim().toLowerCase();
  const byId = prompt.choices.find((choice) => choice.id === wanted);
  if (byId) return byId;
  const byKey = prompt.choices.find((choice) => choice.keys.length === 1 && choice.keys[0]!.toLowerCase() === wanted);
  if (byKey) return byKey;
  const exact = prompt.choices.find((choice) => choice.label.toLowerCase() === wanted);
  if (exact) return exact;
  const prefixed = prompt.choices.filter((choice) => choice.label.toLowerCase().startsWith(wanted) || choice.id.startsWith(wanted));
  if (prefixed.length > 1) {
    throw new UsageError(`"${words}" starts more than one choice (${prefixed.map((choice) => choice.id).join(', ')}); give more of it`);
  }
  return prefixed[0] ?? null;
}
