import type { AgentInfo } from '../../protocol/methods/agent.ts';
import type { BoardCard } from '../wire.ts';
import { ATTENTION_ORDER, age, el, metadataLabels } from './format.ts';

/** Cards by pane id, drawn sorted by what needs the person: blocked, done, working, idle, unknown. */
export class BoardModel {
  readonly cards = new Map<string, BoardCard>();

  reset(cards: BoardCard[]): void {
    this.cards.clear();
    for (const card of cards) this.cards.set(card.info.id, card);
  }

  sorted(): BoardCard[] {
    return [...this.cards.values()].sort(
      (a, b) =>
        ATTENTION_ORDER.indexOf(a.info.state) - ATTENTION_ORDER.indexOf(b.info.state) ||
        a.info.stateSince - b.info.stateSince ||
        a.info.id.localeCompare(b.info.id, 'en', { numeric: true }),
    );
  }

  /** How many agents need the person: those with an unacknowledged attention inbox item (as `corral top` counts). */
  get needsYou(): number {
    let count = 0;
    for (const card of this.cards.values()) if (card.inbox) count++;
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

function card({ info, tail, inbox, host, stale }: BoardCard, now: number): HTMLElement {
  const name = info.name ?? info.id;
  const meta = [info.agent ?? 'no agent', info.workspace !== 'default' ? `@${info.workspace}` : '', info.queued > 0 ? `${info.queued} queued` : ''].filter(Boolean);
  const question = info.state === 'blocked' ? questionOf(info) : null;
  const link = el('a', `card state-${info.state}${inbox ? ' needs-you' : ''}${stale ? ' stale' : ''}`);
  link.href = `#/agent/${encodeURIComponent(info.id)}`;
  link.dataset.id = info.id;
  link.dataset.state = info.state;
  if (inbox) link.dataset.inbox = String(inbox.id);
  // With --fleet: the host it runs on, and whether its state is the last known (the host is away).
  if (host !== undefined) link.dataset.host = host;
  if (stale) link.dataset.stale = 'true';
  link.append(
    ...[
    el('div', 'card-head', '', el('span', 'card-name', name), host !== undefined ? el('span', 'card-host', host) : null, inbox ? el('span', 'inbox-dot', '●') : null, el('span', `badge badge-${info.state}`, `${info.state} ${age(info.stateSince, now)}${stale ? ' (stale)' : ''}`)),
    el('div', 'card-meta', meta.join(' · ')),
    info.title ? el('div', 'card-title', info.title) : null,
    ...metadataLabels(info.metadata).map((label) => el('span', 'chip', label)),
    question ? el('div', 'card-question', question) : null,
    tail.length > 0 ? el('pre', 'card-tail', tail.join('\n')) : null,
    ].filter((node): node is HTMLElement => node !== null),
  );
  return link;
}

/**
 * Draws the board: a rollup line per workspace, then the cards. Keyed by pane id: a card is built
 * again only when its data changed (or its age label moved on), and moved only when the order did, so
 * a board of a hundred agents costs little per change.
 */
export class BoardView {
  private readonly rollup = el('div', 'rollups');
  private readonly grid = el('div', 'board');
  private readonly built = new Map<string, { card: BoardCard; age: string; node: HTMLElement }>();
  private readonly empty = el('p', 'empty', 'No agents yet. Start one with: corral pane spawn --name NAME -- claude');

  constructor() {
    this.grid.id = 'board';
  }

  attach(root: HTMLElement): void {
    if (this.grid.parentElement !== root) root.replaceChildren(this.rollup, this.grid);
  }

  render(model: BoardModel, now = Date.now()): void {
    const sorted = model.sorted();
    this.renderRollup(sorted);
    const nodes: HTMLElement[] = [];
    const live = new Set<string>();
    for (const entry of sorted) {
      const id = entry.info.id;
      live.add(id);
      const label = age(entry.info.stateSince, now);
      let built = this.built.get(id);
      if (built === undefined || built.card !== entry || built.age !== label) {
        built = { card: entry, age: label, node: card(entry, now) };
        this.built.get(id)?.node.replaceWith(built.node);
        this.built.set(id, built);
      }
      nodes.push(built.node);
    }
    for (const [id, built] of this.built) {
      if (!live.has(id)) {
        built.node.remove();
        this.built.delete(id);
      }
    }
    if (nodes.length === 0) return void this.grid.replaceChildren(this.empty);
    this.empty.remove();
    // Moves only what is out of place.
    nodes.forEach((node, index) => {
      if (this.grid.children[index] !== node) this.grid.insertBefore(node, this.grid.children[index] ?? null);
    });
  }

  private renderRollup(sorted: BoardCard[]): void {
    const workspaces = new Map<string, Record<string, number>>();
    for (const { info, host } of sorted) {
      const workspace = host !== undefined ? `${info.workspace}@${host}` : info.workspace;
      const counts = workspaces.get(workspace) ?? {};
      counts[info.state] = (counts[info.state] ?? 0) + 1;
      workspaces.set(workspace, counts);
    }
    const parts: HTMLElement[] = [];
    for (const [workspace, counts] of workspaces) {
      const top = ATTENTION_ORDER.find((state) => counts[state]) ?? 'unknown';
      const text = ATTENTION_ORDER.filter((state) => counts[state]).map((state) => `${counts[state]} ${state}`).join(', ');
      parts.push(el('span', `rollup badge-${top}`, `${workspace}: ${text}`));
    }
    const text = parts.map((part) => part.textContent).join('|');
    if (this.rollup.dataset.text !== text) {
      this.rollup.dataset.text = text;
      this.rollup.replaceChildren(...parts);
    }
  }
}
