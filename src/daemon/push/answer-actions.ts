import type { InboxItem } from '../../protocol/methods/inbox.ts';
import type { AgentPrompt, PromptChoice } from '../../protocol/prompt.ts';
import type { AnswerTokens } from './answer-tokens.ts';
import type { PushAction } from './push-payload.ts';

/** What minting an item's answer buttons needs: the tokens, which choices may be buttons, how long they live. */
export interface AnswerMinting {
  tokens: AnswerTokens;
  /** The answer buttons a prompt may have: its safe choices (src/protocol/prompt.ts). */
  buttons(prompt: AgentPrompt): PromptChoice[];
  ttlSeconds: number;
}

/**
 * The answer buttons of an inbox item, each with a token of its own for the item's prompt and that
 * choice (and what a confirmation page shows of it): none unless the item is blocked on a prompt read whole.
 */
export function answerActions(item: InboxItem, { tokens, buttons, ttlSeconds }: AnswerMinting): PushAction[] {
  const prompt = item.prompt;
  if (item.state !== 'blocked' || prompt === null || !prompt.complete) return [];
  return buttons(prompt).map((choice) => ({
    action: choice.id,
    title: choice.label,
    token: tokens.mint({ pane: item.pane.id, promptId: prompt.id, choice: choice.id }, ttlSeconds * 1000, { label: choice.label, agent: item.agent, paneName: item.pane.name, question: prompt.text }),
  }));
}
