import { needsYou } from '../../protocol/states.ts';
import type { BoardCard, WebHost } from '../wire.ts';
import { ATTENTION_ORDER, age, el } from './format.ts';
import { policyParts, policyShown } from './policy-view.ts';
import type { PageRpc } from './rpc.ts';

/**
 * With `corral web --fleet`: one line per host above the board (docs/fleet.md), its state (offline
 * since when and why), its agents by state and how many need you, and its approval policy with its
 * kill switch while connected (`host.policy`); a host away counts its agents as stale, with their
 * last known states. Empty for one daemon.
 */
export class HostsView {
  readonly root = el('div', 'hosts');
  hosts: WebHost[] = [];

  constructor(private readonly rpc: PageRpc) {
    this.root.id = 'hosts';
  }

  render(cards: Iterable<BoardCard>, now = Date.now()): void {
    const byHost = new Map<string, BoardCard[]>(this.hosts.map((host) => [host.name, []]));
    for (const card of cards) if (card.host !== undefined) byHost.get(card.host)?.push(card);
    const parts = this.hosts.map((host) => line(host, byHost.get(host.name) ?? [], now, this.rpc));
    const text = parts.map((part) => `${part.dataset.state}:${part.textContent}`).join('|');
    if (this.root.dataset.text !== text) {
      this.root.dataset.text = text;
      // A reason opened stays open as its line is drawn again (its age moves on).
      const open = new Set([...this.root.querySelectorAll<HTMLElement>('.host:has(> details[open])')].map((node) => node.dataset.host));
      for (const part of parts) if (open.has(part.dataset.host)) part.querySelector('details')?.setAttribute('open', '');
      this.root.replaceChildren(...parts);
    }
  }
}

function line(host: WebHost, cards: BoardCard[], now: number, rpc: PageRpc): HTMLElement {
  const counts: Record<string, number> = {};
  for (const { info } of cards) counts[info.state] = (counts[info.state] ?? 0) + 1;
  // The one meaning of "needs you" (src/protocol/states.ts), as the top bar and host list count it, not the inbox's marks.
  const needs = cards.filter((card) => needsYou(card.info.state)).length;
  const stale = cards.filter((card) => card.stale).length;
  const agents = ATTENTION_ORDER.filter((s) => counts[s]).map((s) => `${counts[s]} ${s}`).join(', ') || 'no agents';
  const text = [agents, stale > 0 ? `${stale} stale` : '', needs > 0 ? `${needs} need${needs === 1 ? 's' : ''} you` : ''].filter(Boolean).join(' · ');
  const node = el('div', `host host-${host.state}`, '', el('span', 'host-name', host.name));
  if (host.state !== 'connected') node.append(el('span', 'host-state', `${host.state} ${age(host.since, now)}`));
  if (host.reason) node.append(why(host.why ?? 'why', host.reason));
  node.append(el('span', 'host-text', text));
  // Its own policy, pressed on its own daemon; its new state comes back on the hosts' line (board.hosts).
  if (host.state === 'connected' && policyShown(host.policy)) {
    node.append(el('span', 'policy host-policy', '', ...policyParts(host.policy, (pause) => rpc.call('host.policy', { host: host.name, paused: pause }))));
  }
  node.dataset.host = host.name;
  node.dataset.state = host.state;
  return node;
}

/** Why a host is away in a word or two; ssh's own words (which may run to a paragraph) on demand. */
function why(short: string, reason: string): HTMLElement {
  const details = el('details', 'host-why', '', el('summary', '', short), el('div', 'host-reason', reason));
  details.title = reason;
  return details;
}
