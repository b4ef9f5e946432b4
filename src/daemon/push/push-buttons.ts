import type { AgentPrompt, PromptChoice } from '../../protocol/prompt.ts';

/** Labels of a grant for this one request: not "always", not "for this session", not "don't ask again". */
const ALLOW_ONCE = /^(yes|allow|allow once|approve|yes, proceed)\b(?!.*\b(always|again|session|all)\b)/i;
const DENY = /^(no|reject|deny|decline)\b/i;

/**
 * The buttons a notification may carry: a complete permission prompt's allow-once choice and its deny
 * choice (in that order, each only with keys); never a risky choice, which opens the agent's page instead.
 */
export function pushButtons(prompt: AgentPrompt): PromptChoice[] {
  if (!prompt.complete || prompt.kind !== 'permission' || prompt.freeText) return [];
  const withKeys = prompt.choices.filter((choice) => choice.keys.length > 0);
  const allow = withKeys.find((choice) => ALLOW_ONCE.test(choice.label));
  const deny = withKeys.find((choice) => DENY.test(choice.label));
  return [allow, deny].filter((choice): choice is PromptChoice => choice !== undefined);
}
