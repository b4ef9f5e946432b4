import { safeChoices, type AgentPrompt, type ChoiceRole, type PromptChoice } from '../protocol/prompt.ts';

/**
 * The choice a rule takes by default: the prompt's one allow-once (allow) or deny (deny) choice of
 * `safeChoices`, so only of a whole permission dialog and never one that allows more than once; null
 * when it has none, and a rule must name the choice it takes.
 */
export function defaultChoice(prompt: AgentPrompt, role: Extract<ChoiceRole, 'allow-once' | 'deny'>): PromptChoice | null {
  return safeChoices(prompt).find((choice) => choice.role === role) ?? null;
}
