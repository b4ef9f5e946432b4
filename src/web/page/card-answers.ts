import type { AgentInfo } from '../../protocol/methods/agent.ts';
import { safeChoicesOf } from '../../protocol/safe-choices.ts';
import { el } from './format.ts';

/**
 * What a blocked card offers to tap: the safe choices of its prompt (src/protocol/safe-choices.ts:
 * allow once and deny, of a whole permission dialog), each bound to the prompt's id. Any other prompt,
 * one not read whole, or a risky choice is answered on the agent's page, where the dialog is seen.
 */
export interface CardAnswers {
  promptId: string | null;
  choices: { id: string; label: string }[];
}

/** A blocked card's answers; null for a card not blocked, or stale (its host is away: nothing can be typed). */
export function cardAnswers(info: AgentInfo, stale: boolean): CardAnswers | null {
  if (info.state !== 'blocked' || stale) return null;
  const prompt = info.prompt ?? null;
  const choices = prompt === null ? [] : safeChoicesOf(prompt).map(({ id, label }) => ({ id, label }));
  return { promptId: prompt?.id ?? null, choices };
}

/** Its buttons, or "open to answer" where there is nothing to tap. */
export function renderAnswers(answers: CardAnswers): HTMLElement {
  if (answers.choices.length === 0 || answers.promptId === null) return el('div', 'card-answers card-open', 'open to answer');
  const row = el('div', 'card-answers', '', ...answers.choices.map(({ id, label }) => {
    // `No, and tell Claude what to do differently` reads as `No` on a card; the whole label on hover.
    const button = el('button', 'card-choice', label.split(', ')[0]);
    button.type = 'button';
    button.dataset.choice = id;
    button.title = label;
    button.setAttribute('aria-label', label);
    return button;
  }));
  row.dataset.promptId = answers.promptId;
  return row;
}

/**
 * A tap on a card's answer button (a click the board hears for all its cards): answers the card's
 * prompt with that choice and opens no card, only when the card shows its question whole. Says on the card what came of it; the card is drawn anew
 * as its agent moves on.
 */
export function answerFromCard(event: MouseEvent, answer: (target: string, promptId: string, choice: string) => Promise<unknown>): void {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-choice]');
  const row = button?.closest<HTMLElement>('.card-answers');
  const card = row?.closest<HTMLElement>('.card');
  if (!button || !row || !card || row.dataset.promptId === undefined) return;
  event.preventDefault(); // the card is a link to the agent's page
  event.stopPropagation();
  const buttons = [...row.querySelectorAll('button')];
  const status = row.querySelector('.card-status') ?? row.appendChild(el('span', 'card-status'));
  // The person answers what the card shows: a question the card cuts is answered on the agent's page.
  const question = card.querySelector<HTMLElement>('.card-question');
  if (question === null || question.scrollHeight > question.clientHeight + 1 || question.scrollWidth > question.clientWidth + 1) {
    status.textContent = 'The question does not fit here: open the agent to answer.';
    return;
  }
  for (const each of buttons) each.disabled = true;
  status.textContent = 'Answering…';
  answer(card.dataset.id!, row.dataset.promptId, button.dataset.choice!).then(
    () => (status.textContent = 'Answered.'),
    (error: { code?: string; message: string }) => {
      status.textContent = error.code === 'prompt_changed' ? 'The question changed: nothing was typed.' : error.message;
      for (const each of buttons) each.disabled = false;
    },
  );
}
