import type { AgentInfo } from '../../protocol/methods/agent.ts';
import { needsYou } from '../../protocol/states.ts';
import type { BoardCard } from '../wire.ts';
import { cutToCells } from '../../base/cells.ts';
import { ATTENTION_ORDER, age, ageChangesIn, budgetBadge, el, metadataLabels, usageLabel } from './format.ts';
import { CARD_HEIGHT, boardHeight, cardLayout, slotTransform, tailWidth, type CardLayout } from './card-slots.ts';
import { BoardFilter, workspaceKey } from './board-filter.ts';
import { answerFromCard, cardAnswers, renderAnswers, type CardAnswers } from './card-answers.ts';
import { dismissFromCard, renderReminder } from './card-reminder.ts';

/**
 * Cards by pane id, drawn sorted by what needs the person: blocked, done, working, idle, unknown. The
 * order is sorted again only when a card's state, its age or the set of cards changed, never for a tail.
 */
export class BoardModel {
  private readonly byId = new Map<string, BoardCard>();
  private ids: string[] | null = null;

  get cards(): ReadonlyMap<string, BoardCard> {
    return this.byId;
  }

  reset(cards: BoardCard[]): void {
    this.byId.clear();
    for (const card of cards) this.byId.set(card.info.id, card);
    this.ids = null;
  }

  set(card: BoardCard): void {
    const before = this.byId.get(card.info.id);
    this.byId.set(card.info.id, card);
    if (before === undefined || before.info.state !== card.info.state || before.info.stateSince !== card.info.stateSince) this.ids = null;
  }

  setTail(id: string, tail: string[]): void {
    const card = this.byId.get(id);
    if (card) this.set({ ...card, tail });
  }

  delete(id: string): void {
    if (this.byId.delete(id)) this.ids = null;
  }

  /** Pane ids in the board's order: the same array until the order may have changed. */
  order(): readonly string[] {
    this.ids ??= [...this.byId.values()]
      .sort(
        (a, b) =>
          ATTENTION_ORDER.indexOf(a.info.state) - ATTENTION_ORDER.indexOf(b.info.state) ||
          a.info.stateSince - b.info.stateSince ||
          a.info.id.localeCompare(b.info.id, 'en', { numeric: true }),
      )
      .map((card) => card.info.id);
    return this.ids;
  }

  sorted(): BoardCard[] {
    return this.order().map((id) => this.byId.get(id)!);
  }

  /** How many agents need the person (`needsYou`: blocked, or done not yet seen), as every view counts them. */
  get needsYou(): number {
    let count = 0;
    for (const card of this.byId.values()) if (needsYou(card.info.state)) count++;
    return count;
  }
}

/**
 * What a blocked agent asks, when the daemon knows it: the prompt's text on one line (`Bash command ·
 * rm -rf build/ · Do you want to proceed?`), as top shows it, so the card says what is to be allowed.
 */
function questionOf(info: AgentInfo): string | null {
  const prompt = (info as AgentInfo & { prompt?: { text?: string } | null }).prompt;
  return prompt?.text ? prompt.text.split('\n').join(' · ') : null;
}

/** What a card shows besides its tail and age label: a card is drawn again only when this changed. */
interface Looks {
  state: string;
  name: string;
  meta: string;
  title: string | null;
  chips: string[];
  question: string | null;
  /** A blocked card's safe choices to tap, or its "open to answer" (card-answers.ts). */
  answers: CardAnswers | null;
  inbox: number | null;
  /** The budget share the agent stands at, `80` or `100` (docs/usage.md); null when none. */
  budget: string | null;
  /** With --fleet: the host it runs on, and whether its state is the last known (the host is away). */
  host: string | null;
  stale: boolean;
}

function looksOf({ info, inbox, host, stale }: BoardCard): Looks {
  const meta = [stale === true ? 'stale' : '', info.agent ?? 'no agent', info.workspace !== 'default' ? `@${info.workspace}` : '', info.queued > 0 ? `${info.queued} queued` : '', usageLabel(info.usage)].filter(Boolean);
  return {
    state: info.state,
    name: info.name ?? info.id,
    meta: meta.join(' · '),
    title: info.title,
    chips: metadataLabels(info.metadata),
    question: info.state === 'blocked' ? questionOf(info) : null,
    answers: cardAnswers(info, stale === true),
    inbox: inbox?.id ?? null,
    budget: typeof info.usage === 'object' ? info.usage.budget?.percent ?? null : null,
    host: host ?? null,
    stale: stale === true,
  };
}

/** One card's nodes: the ones a tail or an age changes in place, without drawing the card again. */
interface BuiltCard {
  card: BoardCard;
  looks: string;
  age: string;
  tailText: string | null;
  /** The transform that put the node in its slot, last written. */
  transform: string;
  node: HTMLElement;
  badge: HTMLElement;
  tail: HTMLElement;
}

/** The card's node for a pane, its content drawn by fill. */
function build(entry: BoardCard, label: string, columns: number): BuiltCard {
  const link = el('a');
  link.href = `#/agent/${encodeURIComponent(entry.info.id)}`;
  link.dataset.id = entry.info.id;
  return fill(link, entry, looksOf(entry), label, columns, '');
}

/** Draws a card's content into its node, which stays the same: in its place, still observed. */
function fill(link: HTMLElement, entry: BoardCard, looks: Looks, label: string, columns: number, transform: string): BuiltCard {
  const { state, name, meta, title, chips, question, answers, inbox, host, stale, budget } = looks;
  link.className = `card state-${state}${inbox !== null ? ' needs-you' : ''}${stale ? ' stale' : ''}`;
  link.dataset.state = state;
  if (inbox !== null) link.dataset.inbox = String(inbox);
  else delete link.dataset.inbox;
  if (host !== null) link.dataset.host = host;
  else delete link.dataset.host;
  if (stale) link.dataset.stale = 'true';
  else delete link.dataset.stale;
  if (budget !== null) link.dataset.budget = budget;
  else delete link.dataset.budget;
  const badge = el('span', `badge badge-${state}`, badgeText(entry, label));
  const tail = el('pre', 'card-tail');
  link.replaceChildren(
    ...[
      el('div', 'card-head', '', el('span', 'card-name', name), host !== null ? el('span', 'card-host', host) : null, inbox !== null ? renderReminder(inbox, stale) : null, badge),
      // The budget badge beside the figures it is about: on the head it left a name two letters ("sp…").
      el('div', 'card-sub', '', el('div', 'card-meta', meta), budgetBadge(entry.info.usage)),
      title ? el('div', 'card-title', title) : null,
      chips.length > 0 ? el('div', 'card-chips', '', ...chips.map((text) => el('span', 'chip', text))) : null,
      question ? el('div', 'card-question', question) : null,
      answers ? renderAnswers(answers) : null,
      tail,
    ].filter((node): node is HTMLElement => node !== null),
  );
  const built = { card: entry, looks: JSON.stringify(looks), age: label, tailText: null, transform, node: link, badge, tail };
  showTail(built, entry.tail, columns);
  return built;
}

/** The state and its age: a stale card says so on its meta line, leaving the head's room to the name. */
function badgeText({ info }: BoardCard, label: string): string {
  return `${info.state} ${label}`;
}

/**
 * Writes the tail's lines, each cut to the `columns` cells the card shows. Cut here rather than by
 * CSS: the browser shapes a line whole however little of it shows, and glyphs its fonts lack (box
 * drawing, CJK) sent it searching for fallbacks, most of a board's layout time
 * (bench/probes/web-page-cost.ts). Wide characters take two cells, as on the screen.
 */
function showTail(built: BuiltCard, tail: string[], columns: number): void {
  const text = tail.map((line) => cutToCells(line, columns)).join('\n');
  if (text === built.tailText) return;
  built.tailText = text;
  built.tail.textContent = text;
  built.tail.hidden = tail.length === 0;
}

/**
 * Draws the board: a filter box, a rollup pill per workspace (pressing one shows its cards alone),
 * then the cards the filter lets through. Keyed by pane id: a card's content is
 * drawn again only when its agent or inbox item changed; a new tail or age label is written into it.
 * Cards are all one size, each placed in its slot by a transform (src/web/page/card-slots.ts), and
 * their nodes kept in the board's order, so a card that moves costs a composite, not a layout of the
 * board. Which cards are on screen is told to onShown (an IntersectionObserver): only theirs need new tails.
 */
export class BoardView {
  readonly filter = new BoardFilter();
  private readonly filterBox = el('input', 'filter-box');
  private readonly filterCount = el('span', 'filter-count');
  /** Shows the keys (board-keys.ts); told by main.ts. */
  readonly keysButton = el('button', 'keys-button secondary', '?');
  private readonly toolbar = el('div', 'board-tools', '', this.filterBox, this.filterCount, this.keysButton);
  private readonly rollup = el('div', 'rollups');
  private readonly grid = el('div', 'board');
  private readonly built = new Map<string, BuiltCard>();
  private readonly empty = el('p', 'empty', 'No agents yet. Start one with: corral pane spawn --name NAME -- claude');
  /** A tail's text of ten cells, never shown: how wide a cell is, so tails are cut to their card. */
  private readonly cellProbe = el('span', '', '0123456789');
  private drawnOrder: readonly string[] | null = null;
  private drawnFilter = -1;
  private countedOrder: readonly string[] | null = null;
  /** The cards the filter lets through, in the board's order: the same array while they are the same. */
  private shown: readonly string[] = [];
  /** The card j and k move from and Enter opens (board-keys.ts): a pane id, marked data-selected. */
  private selectedId: string | null = null;
  private layout: CardLayout | null = null;
  /** The cells a card's tail shows across (showTail). */
  private tailColumns = 80;
  private readonly onScreen = new Set<string>();
  private readonly observer = new IntersectionObserver((entries) => this.seen(entries));
  private readonly resizes = new ResizeObserver(() => this.resized());
  /** Told the ids of the cards on screen whenever they change. */
  onShown: (ids: string[]) => void = () => {};
  /** Told when the filter changed: the board is to be drawn again. */
  onFilter: () => void = () => {};
  /** Answers a card's prompt with one of its safe choices (main.ts: agent.answer bound to the prompt's id). */
  onAnswer: (target: string, promptId: string, choice: string) => Promise<unknown> = async () => {};
  /** Dismisses a card's reminder on purpose (main.ts: inbox.dismiss), for every device. */
  onDismiss: (target: string, item: number) => Promise<unknown> = async () => {};

  constructor() {
    this.grid.id = 'board';
    this.filterBox.type = 'search';
    this.filterBox.id = 'filter';
    this.filterBox.placeholder = 'Filter agents  ( / )';
    this.filterBox.title = 'Cards whose name, agent, workspace, host or state hold every word typed';
    this.filterBox.setAttribute('aria-label', 'Filter the agents by name, agent, workspace, host or state');
    this.filterBox.autocomplete = 'off';
    this.filterBox.spellcheck = false;
    this.filterBox.addEventListener('input', () => {
      this.filter.text = this.filterBox.value;
      this.onFilter();
    });
    this.keysButton.title = 'Keys (?)';
    this.keysButton.setAttribute('aria-label', 'Keys');
    this.rollup.addEventListener('click', (event) => {
      const pill = (event.target as HTMLElement).closest<HTMLElement>('.rollup');
      if (pill?.dataset.workspace === undefined) return;
      this.filter.toggleWorkspace(pill.dataset.workspace);
      this.onFilter();
    });
    this.grid.addEventListener('click', (event) => {
      dismissFromCard(event, this.onDismiss);
      answerFromCard(event, this.onAnswer);
    });
    this.grid.style.setProperty('--card-height', `${CARD_HEIGHT}px`);
    this.resizes.observe(this.grid);
  }

  attach(root: HTMLElement): void {
    if (this.grid.parentElement === root) return;
    root.replaceChildren(this.toolbar, this.rollup, el('pre', 'card-tail cell-probe', '', this.cellProbe), this.grid);
    // Observed again: back from an agent's page, the cards on screen are told anew.
    for (const { node } of this.built.values()) {
      this.observer.unobserve(node);
      this.observer.observe(node);
    }
  }

  /** The board left the screen (an agent's page shows instead): no card is on it. */
  detach(): void {
    this.onScreen.clear();
    this.onShown([]);
  }

  render(model: BoardModel, now = Date.now()): void {
    if (this.layout === null && this.grid.isConnected) this.measure();
    const order = this.shownOf(model);
    const reordered = order !== this.drawnOrder;
    // The pills count every card, the filter's or not: drawn again when any card moved, or the filter changed.
    const recounted = model.order() !== this.countedOrder || this.filter.version !== this.drawnFilter;
    this.drawnOrder = order;
    this.countedOrder = model.order();
    this.drawnFilter = this.filter.version;
    if (recounted) {
      this.renderRollup(model.sorted());
      this.renderFilter(order.length, model.cards.size);
    }
    for (const id of order) this.renderCard(model.cards.get(id)!, now);
    if (reordered) this.place(order);
  }

  /** The filter box, focused and its text selected (`/`). */
  focusFilter(): void {
    this.filterBox.focus();
    this.filterBox.select();
  }

  blurFilter(): void {
    this.filterBox.blur();
  }

  get filterFocused(): boolean {
    return document.activeElement === this.filterBox;
  }

  /** Empties the filter box and releases the workspace pill (Esc); false if there was nothing to clear. */
  clearFilter(): boolean {
    if (this.filter.empty && this.filterBox.value === '') return false;
    this.filterBox.value = '';
    this.filter.clear();
    this.onFilter();
    return true;
  }

  get selected(): string | null {
    return this.selectedId !== null && this.built.has(this.selectedId) ? this.selectedId : null;
  }

  /**
   * Moves the selection `step` cards along the board's order (j: 1, k: -1), from the first or last
   * card when none shown is selected, and scrolls it into view. Returns the card selected.
   */
  select(step: number): string | null {
    const order = this.drawnOrder ?? [];
    if (order.length === 0) return null;
    const at = this.selected === null ? -1 : order.indexOf(this.selected);
    const next = at === -1 ? (step > 0 ? 0 : order.length - 1) : Math.min(order.length - 1, Math.max(0, at + step));
    this.mark(order[next]!);
    this.built.get(order[next]!)!.node.scrollIntoView({ block: 'nearest' });
    return order[next]!;
  }

  /** The card Enter opens: the one selected, or the first shown. */
  get target(): string | null {
    return this.selected ?? this.drawnOrder?.[0] ?? null;
  }

  private mark(id: string | null): void {
    if (this.selectedId !== null) delete this.built.get(this.selectedId)?.node.dataset.selected;
    this.selectedId = id;
    if (id !== null) this.built.get(id)!.node.dataset.selected = 'true';
  }

  /** The ids of the cards the filter lets through: the model's own array when it lets every card through. */
  private shownOf(model: BoardModel): readonly string[] {
    const order = model.order();
    if (this.filter.empty) return (this.shown = order);
    // Read again on each draw: a card's name or workspace can change without its place.
    const shown = order.filter((id) => this.filter.matches(model.cards.get(id)!));
    if (shown.length !== this.shown.length || shown.some((id, index) => this.shown[index] !== id)) this.shown = shown;
    return this.shown;
  }

  private renderFilter(shown: number, all: number): void {
    if (this.filterBox.value !== this.filter.text) this.filterBox.value = this.filter.text;
    this.filterCount.textContent = this.filter.empty ? '' : `${shown} of ${all}`;
    this.empty.textContent = all > 0 ? 'No agent matches the filter (Esc clears it).' : 'No agents yet. Start one with: corral pane spawn --name NAME -- claude';
  }

  /**
   * Milliseconds until an age label on screen changes (null: none is on screen). The board is drawn
   * again then, not every second: off-screen labels are written with the next draw, or when their
   * card comes on screen (onShown).
   */
  nextAgeChange(now = Date.now()): number | null {
    let next: number | null = null;
    for (const id of this.onScreen) {
      const since = this.built.get(id)?.card.info.stateSince;
      if (since !== undefined) next = Math.min(next ?? Infinity, ageChangesIn(since, now));
    }
    return next;
  }

  private renderCard(entry: BoardCard, now: number): void {
    const id = entry.info.id;
    const label = age(entry.info.stateSince, now);
    const built = this.built.get(id);
    if (built === undefined) {
      const next = build(entry, label, this.tailColumns);
      if (id === this.selectedId) next.node.dataset.selected = 'true';
      this.observer.observe(next.node);
      this.built.set(id, next);
      return;
    }
    if (built.card.info !== entry.info || built.card.inbox !== entry.inbox) {
      // A card read again often shows what it did (its state told already, from the event): nothing is drawn then.
      const looks = looksOf(entry);
      if (JSON.stringify(looks) !== built.looks) return void this.built.set(id, fill(built.node, entry, looks, label, this.tailColumns, built.transform));
    }
    if (built.card.tail !== entry.tail) showTail(built, entry.tail, this.tailColumns);
    if (built.age !== label) built.badge.textContent = badgeText(entry, label);
    built.card = entry;
    built.age = label;
  }

  /** Puts the nodes in the model's order, moving only what is out of place, drops removed cards, and slots them. */
  private place(order: readonly string[]): void {
    const live = new Set(order);
    for (const [id, built] of this.built) {
      if (live.has(id)) continue;
      this.observer.unobserve(built.node);
      built.node.remove();
      this.built.delete(id);
      if (this.onScreen.delete(id)) this.onShown([...this.onScreen]);
    }
    if (order.length === 0) {
      this.grid.style.height = '';
      return void this.grid.replaceChildren(this.empty);
    }
    this.empty.remove();
    order.forEach((id, index) => {
      const node = this.built.get(id)!.node;
      if (this.grid.children[index] !== node) this.grid.insertBefore(node, this.grid.children[index] ?? null);
    });
    this.position(order);
  }

  /** Writes each card's slot where it changed, and the board's height. */
  private position(order: readonly string[]): void {
    const layout = this.layout;
    if (layout === null || order.length === 0) return;
    order.forEach((id, index) => {
      const built = this.built.get(id)!;
      const transform = slotTransform(index, layout);
      if (built.transform === transform) return;
      built.transform = transform;
      built.node.style.transform = transform;
    });
    this.grid.style.height = `${boardHeight(order.length, layout)}px`;
  }

  /** The board's width changed: new columns, the cards in their new slots, tails cut anew. */
  private resized(): void {
    if (!this.grid.isConnected) return;
    const before = this.layout;
    const columns = this.tailColumns;
    this.measure();
    const layout = this.layout!;
    if (this.tailColumns !== columns) for (const built of this.built.values()) showTail(built, built.card.tail, this.tailColumns);
    if (before?.columns === layout.columns && before.cardWidth === layout.cardWidth) return;
    if (this.drawnOrder !== null) this.position(this.drawnOrder);
  }

  private measure(): void {
    const layout = cardLayout(this.grid.clientWidth);
    this.layout = layout;
    this.grid.style.setProperty('--card-width', `${layout.cardWidth}px`);
    const cell = this.cellProbe.getBoundingClientRect().width / 10;
    if (cell > 0) this.tailColumns = Math.max(1, Math.floor(tailWidth(layout.cardWidth) / cell));
  }

  private seen(entries: IntersectionObserverEntry[]): void {
    let changed = false;
    for (const entry of entries) {
      const id = (entry.target as HTMLElement).dataset.id!;
      // One taken off the page (an agent's page shows) left with detach.
      if (entry.isIntersecting === this.onScreen.has(id) || !entry.target.isConnected) continue;
      if (entry.isIntersecting) this.onScreen.add(id);
      else this.onScreen.delete(id);
      changed = true;
    }
    if (changed && this.grid.isConnected) this.onShown([...this.onScreen]);
  }

  /** A pill per workspace, of every card whatever the filter: a button that shows that workspace's cards alone. */
  private renderRollup(sorted: BoardCard[]): void {
    const workspaces = new Map<string, Record<string, number>>();
    for (const card of sorted) {
      const workspace = workspaceKey(card);
      const counts = workspaces.get(workspace) ?? {};
      counts[card.info.state] = (counts[card.info.state] ?? 0) + 1;
      workspaces.set(workspace, counts);
    }
    const pressed = this.filter.workspace;
    const parts: HTMLElement[] = [];
    for (const [workspace, counts] of workspaces) {
      const top = ATTENTION_ORDER.find((state) => counts[state]) ?? 'unknown';
      const text = ATTENTION_ORDER.filter((state) => counts[state]).map((state) => `${counts[state]} ${state}`).join(', ');
      const pill = el('button', `rollup badge-${top}${workspace === pressed ? ' pressed' : ''}`, `${workspace}: ${text}`);
      pill.dataset.workspace = workspace;
      pill.setAttribute('aria-pressed', String(workspace === pressed));
      pill.title = workspace === pressed ? 'Show every workspace' : `Show ${workspace} alone`;
      parts.push(pill);
    }
    // A pressed workspace whose agents are all gone still shows, so that it can be released.
    if (pressed !== null && !workspaces.has(pressed)) {
      const pill = el('button', 'rollup pressed', `${pressed}: none`);
      pill.dataset.workspace = pressed;
      pill.setAttribute('aria-pressed', 'true');
      parts.push(pill);
    }
    const text = `${pressed}|${parts.map((part) => part.textContent).join('|')}`;
    if (this.rollup.dataset.text !== text) {
      this.rollup.dataset.text = text;
      this.rollup.replaceChildren(...parts);
    }
  }
}
