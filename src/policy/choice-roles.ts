import type { AgentPrompt, PromptChoice } from '../protocol/prompt.ts';

export type ChoiceRole = 'allow-once' | 'allow-always' | 'deny' | 'other';

/**
 * A choice's role as its manifest's prompt reader names it (`PromptChoice.role`). A prompt read before
 * readers named roles gets one from its label: `Yes` / `Allow once` / `Yes, proceed` allow once, a label
 * saying always, session or don't ask again allows always, `No` / `Reject` / `Deny` deny.
 */
export function roleOf(choice: PromptChoice): ChoiceRole {
  const named = (choice as { role?: ChoiceRole }).role;
  if (named !== undefined) return named;
  const label = choice.label.trim();
  if (/^(?:no|reject|deny|cancel)\b/i.test(label)) return 'deny';
  if (/always|session|don.t ask|auto mode|switch to/i.test(label)) return 'allow-always';
  if (/^(?:yes|allow once|allow)\b/i.test(label)) return 'allow-once';
  return 'other';
}

/** The prompt's one choice of `role` that has keys, or null: two of one role are no default. */
export function choiceWithRole(prompt: AgentPrompt, role: ChoiceRole): PromptChoice | null {
  const found = prompt.choices.filter((choice) => choice.keys.length > 0 && roleOf(choice) === role);
  return found.length >= 1 ? found[0]! : null;
}
