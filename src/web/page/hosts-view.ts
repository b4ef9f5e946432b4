import type { BoardCard, WebHost } from '../wire.ts';
import { ATTENTION_ORDER, age, el } from './format.ts';

/**
 * With `corral web --fleet`: one line per host above the board (docs/fleet.md), its state (offline
 * since when and why), its agents by state and how many need you; a host away counts its agents as
 * stale, with their last known states. Empty for one daemon.
 */
export class HostsView {
  readonly root = el('div', 'hosts');
  hosts: WebHost[] = [];

  constructor() {
    this.root.id = 'hosts';
  }

  render(cards: Iterable<BoardCard>, now = Date.now()): void {
    const byHost = new Map<string, BoardCard[]>(this.hosts.map((host) => [host.name, []]));
    for (const card of cards) if (card.host !== undefined) byHost.get(card.host)?.push(card);
    const parts = this.hosts.map((host) => line(host, byHost.get(host.name) ?? [], now));
    const text = parts.map((part) => `${part.dataset.state}:${part.textContent}`).join('|');
    if (this.root.dataset.text !== text) {
      this.root.dataset.text = text;
      this.root.replaceChildren(...parts);
    }
  }
}

function line(host: WebHost, cards: BoardCard[], now: number): HTMLElement {
  const counts: Record<string, number> = {};
  for (const { info } of cards) counts[info.state] = (counts[info.state] ?? 0) + 1;
  const needs = cards.filter((card) => card.inbox !== null).length;
  const stale = cards.filter((card) => card.stale).length;
  const state = host.state === 'connected' ? '' : `${host.state} ${age(host.since, now)}${host.reason ? ` (${host.reason})` : ''}`;
  const agents = ATTENTION_ORDER.filter((s) => counts[s]).map((s) => `${counts[s]} ${s}`).join(', ') || 'no agents';
  const text = [state, agents, stale > 0 ? `${stale} stale` : '', needs > 0 ? `${needs} need${needs === 1 ? 's' : ''} you` : ''].filter(Boolean).join(' · ');
  const node = el('div', `host host-${host.state}`, '', el('span', 'host-name', host.name), el('span', 'host-text', text));
  node.dataset.host = host.name;
  node.dataset.state = host.state;
  if (host.reason) node.title = host.reason;
  return node;
}
