import { el } from './format.ts';
import type { BoardView } from './board-view.ts';

/** The board's keys, as `?` lists them (docs/web.md). */
const KEYS: [string, string][] = [
  ['/', 'filter the cards (name, agent, workspace, host, state)'],
  ['Esc', 'clear the filter and the workspace pill; close this list'],
  ['j / k', 'select the next / previous card (↓ from the filter box: the first)'],
  ['Enter', "open the selected card's agent (in the filter box: the selected or first card)"],
  ['?', 'show or hide these keys'],
];

/** Whether a key pressed there is typing, not a command: a text field, the terminal, an editable node. */
function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select, .xterm') !== null);
}

/**
 * The board's keyboard: `/` focuses the filter, Esc clears it, j and k move a selection between the
 * cards shown, Enter opens the selected agent, `?` lists the keys. Only while the board shows
 * (`active`), never while a person types in a field.
 */
export class BoardKeys {
  private readonly help = el(
    'div',
    'keys-help',
    '',
    el('h2', '', 'Keys'),
    el('dl', '', '', ...KEYS.flatMap(([key, what]) => [el('dt', '', '', el('kbd', '', key)), el('dd', '', what)])),
  );

  constructor(
    private readonly board: BoardView,
    private readonly active: () => boolean,
    private readonly open: (id: string) => void,
  ) {
    this.help.id = 'keys-help';
    this.help.setAttribute('role', 'dialog');
    this.help.setAttribute('aria-label', 'Keys');
    this.help.hidden = true;
    this.help.addEventListener('click', () => (this.help.hidden = true));
    board.keysButton.addEventListener('click', () => this.toggleHelp());
    document.body.append(this.help);
    document.addEventListener('keydown', (event) => this.key(event));
  }

  private toggleHelp(): void {
    this.help.hidden = !this.help.hidden;
  }

  private key(event: KeyboardEvent): void {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (!this.active()) {
      this.help.hidden = true;
      return;
    }
    if (this.board.filterFocused) {
      if (event.key === 'Escape') {
        if (!this.board.clearFilter()) this.board.blurFilter();
      } else if (event.key === 'Enter') {
        const id = this.board.target;
        if (id !== null) this.open(id);
      } else if (event.key === 'ArrowDown') {
        this.board.blurFilter();
        this.board.select(1);
      } else return;
      event.preventDefault();
      return;
    }
    if (typing(event.target)) return;
    switch (event.key) {
      case '/':
        this.help.hidden = true;
        this.board.focusFilter();
        break;
      case 'Escape':
        if (!this.help.hidden) this.help.hidden = true;
        else this.board.clearFilter();
        break;
      case 'j':
        this.board.select(1);
        break;
      case 'k':
        this.board.select(-1);
        break;
      case 'Enter': {
        // A focused card (Tab) opens by itself, as a link does; a focused button (a pill) presses itself.
        if (event.target instanceof HTMLAnchorElement || event.target instanceof HTMLButtonElement) return;
        const id = this.board.selected;
        if (id === null) return;
        this.open(id);
        break;
      }
      case '?':
        this.toggleHelp();
        break;
      default:
        return;
    }
    event.preventDefault();
  }
}
