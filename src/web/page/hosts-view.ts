import { needsYou } from '../../protocol/states.ts';
import type { BoardCard, WebHost } from '../wire.ts';
import { ATTENTION_ORDER, age, el } from './format.ts';
import { policyParts, policyShown } from './policy-view.ts';
import type { PageRpc } from './rpc.ts';

/**
 * With `corral web --fleet`: one line per host above the board (docs/fleet.md), its state (offline
 * since when and why), its agents by state and how many need you, and its approval policy with its
 * kill switch while connected (`host.policy`); a host away counts its agents as stale, with their last
 * known states. Empty for one daemon. Each host keeps its line while it is
 * listed, and a drawing changes only the line's text and attributes: the lines are drawn again each
 * second as their ages move on, and a line made anew under a click (on a host's reason) lost it.
 */
export class HostsView {
  readonly root = el('div', 'hosts');
  hosts: WebHost[] = [];
  private readonly lines = new Map<string, HostLine>();

  constructor(private readonly rpc: PageRpc) {
    this.root.id = 'hosts';
  }

  render(cards: Iterable<BoardCard>, now = Date.now()): void {
    const byHost = new Map<string, BoardCard[]>(this.hosts.map((host) => [host.name, []]));
    for (const card of cards) if (card.host !== undefined) byHost.get(card.host)?.push(card);
    for (const [name, line] of this.lines) {
      if (byHost.has(name)) continue;
      line.root.remove();
      this.lines.delete(name);
    }
    this.hosts.forEach((host, index) => {
      let line = this.lines.get(host.name);
      if (line === undefined) this.lines.set(host.name, (line = new HostLine(host.name, this.rpc)));
      line.update(host, byHost.get(host.name) ?? [], now);
      // Moved only when the hosts' order changed (or it is new): a node moved is a node redrawn.
      const at = this.root.children[index] ?? null;
      if (at !== line.root) this.root.insertBefore(line.root, at);
    });
  }
}

/** One host's line: its name, since when it is away and why (the detail on demand), its agents, its policy. */
class HostLine {
  readonly root = el('div', 'host');
  private readonly state = el('span', 'host-state');
  private readonly summary = el('summary');
  private readonly reason = el('div', 'host-reason');
  /** Why the host is away in a word or two; ssh's own words (which may run to a paragraph) on demand. */
  private readonly why = el('details', 'host-why', '', this.summary, this.reason);
  private readonly text = el('span', 'host-text');
  private readonly policy = el('span', 'policy host-policy');
  /** The policy the switch was drawn for: drawn again only when it changes, so a press lands at any moment. */
  private policyDrawn = '';

  constructor(
    name: string,
    private readonly rpc: PageRpc,
  ) {
    this.root.dataset.host = name;
    this.root.append(el('span', 'host-name', name), this.text);
  }

  update(host: WebHost, cards: BoardCard[], now: number): void {
    set(this.root, 'class', `host host-${host.state}`);
    set(this.root, 'data-state', host.state);
    const away = host.state !== 'connected';
    if (away) setText(this.state, `${host.state} ${age(host.since, now)}`);
    const reason = host.reason ?? '';
    if (reason !== '') {
      setText(this.summary, host.why ?? 'why');
      setText(this.reason, reason);
      set(this.why, 'title', reason);
    }
    // A reason that goes (the host is back) takes its opened detail with it: the next one comes closed.
    else this.why.open = false;
    this.show(this.why, reason !== '', this.text);
    this.show(this.state, away, this.why.parentNode === this.root ? this.why : this.text);
    setText(this.text, agentsText(cards));
    // Its own policy, pressed on its own daemon; its new state comes back on the hosts' line (board.hosts).
    const policy = host.state === 'connected' && policyShown(host.policy) ? host.policy : null;
    const policyOn = policy !== null;
    const drawn = policy !== null ? JSON.stringify(policy) : '';
    if (drawn !== this.policyDrawn) {
      this.policyDrawn = drawn;
      const name = host.name;
      this.policy.replaceChildren(...(policy !== null ? policyParts(policy, (pause) => this.rpc.call('host.policy', { host: name, paused: pause })) : []));
    }
    if (!policyOn) this.policy.remove();
    else if (this.policy.parentNode !== this.root) this.root.append(this.policy);
  }

  /** Puts `node` in the line before `before`, or takes it out. */
  private show(node: HTMLElement, shown: boolean, before: Node): void {
    if (!shown) node.remove();
    else if (node.parentNode !== this.root) this.root.insertBefore(node, before);
  }
}

/** The host's agents by state, how many are stale and how many need you. */
function agentsText(cards: BoardCard[]): string {
  const counts: Record<string, number> = {};
  for (const { info } of cards) counts[info.state] = (counts[info.state] ?? 0) + 1;
  // The one meaning of "needs you" (src/protocol/states.ts), as the top bar and host list count it, not the inbox's marks.
  const needs = cards.filter((card) => needsYou(card.info.state)).length;
  const stale = cards.filter((card) => card.stale).length;
  const agents = ATTENTION_ORDER.filter((s) => counts[s]).map((s) => `${counts[s]} ${s}`).join(', ') || 'no agents';
  return [agents, stale > 0 ? `${stale} stale` : '', needs > 0 ? `${needs} need${needs === 1 ? 's' : ''} you` : ''].filter(Boolean).join(' · ');
}

/** Written only when it changed: writing the same text still repaints the line. */
function setText(node: HTMLElement, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

function set(node: HTMLElement, name: string, value: string): void {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}
