import { el } from './format.ts';

/**
 * A card's reminder: its pane's unacknowledged attention inbox item (docs/events.md), a red dot, and
 * a button that dismisses it on purpose (`inbox.dismiss`): one act every device sees, as the daemon
 * tells every client the item left. The agent's state stays as it is, and so does the "needs you"
 * count: a blocked agent still needs the person. A stale card (its host away) has the dot only.
 */
export function renderReminder(item: number, stale: boolean): HTMLElement {
  // A stale card's host is away: nothing there can be acknowledged now.
  if (stale) return el('span', 'card-reminder', '', el('span', 'inbox-dot', '●'));
  const dismiss = el('button', 'reminder-dismiss', '✕');
  dismiss.type = 'button';
  dismiss.dataset.dismiss = String(item);
  dismiss.title = 'Dismiss this reminder on every device (the agent still needs you while it is blocked)';
  dismiss.setAttribute('aria-label', 'Dismiss the reminder');
  return el('span', 'card-reminder', '', el('span', 'inbox-dot', '●'), dismiss);
}

/**
 * A tap on a card's dismiss button (a click the board hears for all its cards): dismisses the item and
 * opens no card. The card is drawn anew without its reminder when the daemon says the item left.
 */
export function dismissFromCard(event: MouseEvent, dismiss: (target: string, item: number) => Promise<unknown>): void {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-dismiss]');
  const card = button?.closest<HTMLElement>('.card');
  if (!button || !card) return;
  event.preventDefault(); // the card is a link to the agent's page
  event.stopPropagation();
  if (button.disabled) return;
  button.disabled = true;
  dismiss(card.dataset.id!, Number(button.dataset.dismiss)).catch((error: { message: string }) => {
    button.title = error.message;
    button.disabled = false;
  });
}
