// `corral web`'s page: the board of every agent, one agent's page with its terminal and question,
// live over one WebSocket (src/web/wire.ts). No view library: the DOM is redrawn from small models.
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import type { AgentInfo } from '../../protocol/methods/agent.ts';
import type { PolicyStatus } from '../../protocol/methods/policy.ts';
import type { BoardCard, LeaseInfo, WebHost } from '../wire.ts';
import { AgentView } from './agent-view.ts';
import { BoardModel, BoardView } from './board-view.ts';
import { BoardKeys } from './board-keys.ts';
import { HostsView } from './hosts-view.ts';
import { CardWatch } from './card-watch.ts';
import { PageNotifications, type Attention } from './notifications.ts';
import { ageChangesIn, nextTick } from './format.ts';
import { PolicyBar } from './policy-view.ts';
import { PageRpc } from './rpc.ts';
import { signIn } from './sign-in.ts';

const rpc = new PageRpc();
const model = new BoardModel();
const boardView = new BoardView();
const hostsView = new HostsView(rpc);
const policyBar = new PolicyBar(rpc);
const watch = new CardWatch(rpc);
boardView.onShown = (ids) => {
  watch.show(ids);
  // A card come on screen may carry an old age label (see pageTick).
  draw();
};
boardView.onFilter = () => draw();
// A card's answer button: the same answer as the agent's page gives, bound to the prompt the card showed.
boardView.onAnswer = (target, promptId, choice) => rpc.call('agent.answer', { target, promptId, choice });
// A card's reminder dismissed on purpose: the daemon acknowledges the item, and every page hears it.
boardView.onDismiss = (target, item) => rpc.call('inbox.dismiss', { target, item });
new BoardKeys(boardView, () => agentView === null && !signedOut, (id) => (location.hash = `#/agent/${encodeURIComponent(id)}`));
const app = document.getElementById('app')!;
const needs = document.getElementById('needs')!;
const link = document.getElementById('link')!;
const notifications = new PageNotifications(document.getElementById('notify') as HTMLButtonElement, rpc, document.getElementById('notify-settings') as HTMLButtonElement, () =>
  [...new Set([...model.cards.values()].map((card) => card.info.workspace))].sort(),
);
let agentView: AgentView | null = null;
/** Tails a round brought (board.tails), drawn on the page's next tick (pageTick). */
const pendingTails = new Map<string, string[]>();
let drawQueued = false;
/** The done turn last marked seen by looking at its agent (`ID#REVISION`): asked once. */
let seenTurn: string | null = null;

/** Set when the server no longer knows this browser's key: the page shows only how to sign in. */
let signedOut = false;

/** Draws at most once a frame, however many cards changed. */
function draw(): void {
  if (drawQueued || signedOut) return;
  drawQueued = true;
  requestAnimationFrame(() => {
    drawQueued = false;
    const count = model.needsYou;
    // Written only when it changed: writing the same text still repaints the bar.
    if (needs.dataset.count !== String(count)) {
      needs.textContent = count > 0 ? `${count} need${count === 1 ? 's' : ''} you` : '';
      needs.dataset.count = String(count);
      document.title = count > 0 ? `(${count}) Corral` : 'Corral';
    }
    if (agentView === null) {
      boardView.attach(app);
      boardView.render(model);
      pageTick();
      // With --fleet: a line per host above the board.
      if (hostsView.hosts.length > 0) {
        if (app.firstChild !== hostsView.root) app.prepend(hostsView.root);
        hostsView.render(model.cards.values());
      }
      // The approval policy and its kill switch, above everything.
      policyBar.render();
      if (policyBar.visible && app.firstChild !== policyBar.root) app.prepend(policyBar.root);
    }
    else {
      const card = model.cards.get(agentView.id);
      if (card) agentView.update(card.info, card);
      seeShown();
    }
  });
}

/** The person looks at this agent now. */
function looking(id: string): boolean {
  return agentView?.id === id && document.visibilityState === 'visible';
}

/**
 * A done agent the person looks at is seen (focused, which also acknowledges its inbox item). A
 * blocked one is not: looking is no answer, so it still needs the person on every device.
 */
function seeShown(): void {
  const id = agentView?.id;
  const card = id === undefined ? undefined : model.cards.get(id);
  if (id === undefined || card?.info.state !== 'done' || `${id}#${card.info.revision}` === seenTurn || !looking(id) || !rpc.open) return;
  seenTurn = `${id}#${card.info.revision}`;
  void rpc.call('agent.focus', { target: id }).catch(() => {});
}

function route(): void {
  if (signedOut) return;
  const match = /^#\/agent\/(.+)$/.exec(location.hash);
  const id = match ? decodeURIComponent(match[1]!) : null;
  if (agentView && agentView.id === id) return;
  agentView?.close();
  agentView = null;
  if (id !== null) {
    boardView.detach();
    agentView = new AgentView(rpc, id);
    app.replaceChildren(agentView.root);
    const card = model.cards.get(id);
    if (card) agentView.update(card.info, card);
    if (rpc.open) void agentView.open().catch((error: { message: string }) => app.prepend(error.message));
  }
  draw(); // a done agent is seen once drawn (seeShown); a blocked one stays blocked
}

rpc.on('board.reset', ({ cards, hosts, policy }: { cards: BoardCard[]; hosts: WebHost[]; policy: PolicyStatus | null }) => {
  pendingTails.clear();
  model.reset(cards);
  hostsView.hosts = hosts;
  policyBar.status = policy;
  // The daemon (with --fleet, the host) of a terminal that ended with it is back: its board is whole again.
  if (agentView?.terminalLost && rpc.open && model.cards.get(agentView.id)?.stale !== true) void agentView.open().catch(() => {});
  draw();
});
rpc.on('board.policy', ({ policy }: { policy: PolicyStatus | null }) => {
  policyBar.status = policy;
  draw();
});
rpc.on('board.hosts', ({ hosts }: { hosts: WebHost[] }) => {
  hostsView.hosts = hosts;
  draw();
});
rpc.on('board.card', (card: BoardCard) => {
  // The card comes with its tail, newer than one a tails round brought before it.
  pendingTails.delete(card.info.id);
  model.set(card);
  draw();
});
rpc.on('board.tails', ({ tails }: { tails: { id: string; tail: string[] }[] }) => {
  for (const { id, tail } of tails) pendingTails.set(id, tail);
  pageTick();
});
rpc.on('board.removed', ({ id }: { id: string }) => {
  model.delete(id);
  draw();
});
rpc.on('attention', (attention: Attention) => notifications.show(attention, looking(attention.id)));
document.addEventListener('visibilitychange', () => seeShown());
rpc.on('terminal.output', ({ id, data, redraw }: { id: string; data: string; redraw: boolean }) => {
  if (agentView?.id === id) agentView.output(data, redraw);
});
rpc.on('terminal.ended', ({ id, reason }: { id: string; reason: string }) => {
  if (agentView?.id === id) agentView.ended(reason);
});
rpc.on('lease.changed', (lease: LeaseInfo) => {
  if (agentView?.id === lease.id) agentView.setLease(lease);
});
rpc.onSignedOut = () => {
  signedOut = true;
  agentView?.close();
  agentView = null;
  link.textContent = 'signed out';
  link.classList.add('down');
  app.replaceChildren(Object.assign(document.createElement('p'), { id: 'signed-out', textContent: 'This browser is not signed in to this corral web (or was signed out). Open the URL that `corral web` printed: it carries the sign-in token.' }));
};
rpc.onStatus = (connected) => {
  link.textContent = connected ? '' : 'reconnecting…';
  link.classList.toggle('down', !connected);
  if (!connected) return;
  watch.reconnected();
  void rpc.call('board.get').then(({ cards, hosts, policy }) => {
    pendingTails.clear();
    model.reset(cards);
    hostsView.hosts = hosts;
    policyBar.status = policy;
    draw();
  });
  if (agentView) void agentView.open().catch(() => {});
};

window.addEventListener('hashchange', () => {
  // The printed URL pasted into this tab (signed out, say): only its fragment changed, so nothing reloads by itself.
  if (/(^#|&)token=/.test(location.hash)) void signIn().then(() => location.reload());
  else route();
});
let tickTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * Where in each second this page draws what is due (pageTick): chosen at random, so that ten pages
 * open on one machine do not all draw at the same instant (bench/web.ts).
 */
const TICK_PHASE_MS = Math.floor(Math.random() * 1000);

/**
 * Ages on the board move on by themselves, and working agents' tails come in rounds (board.tails,
 * every 2 s for every page at once): both are drawn on this page's tick, once a second at its own
 * phase, and only when something is due: an age label on screen (a card's, a host's away) that
 * changes at its own unit, or tails that came in. A hundred cards' labels then move on in one draw,
 * not one each, and ten pages draw a round of tails one after another, not all at once while a
 * state change waits behind them (bench/probes/web-trial-frames.ts).
 */
function pageTick(): void {
  if (tickTimer !== null) clearTimeout(tickTimer);
  const now = Date.now();
  const hosts = hostsView.hosts.filter((host) => host.state !== 'connected').map((host) => ageChangesIn(host.since, now));
  // No card on screen: none to age until one comes on it (onShown draws).
  const next = pendingTails.size > 0 && !drawingTails ? 0 : Math.min(boardView.nextAgeChange(now) ?? Infinity, ...hosts);
  if (next === Infinity) return;
  tickTimer = setTimeout(() => {
    tickTimer = null;
    drawTails();
  }, next + nextTick(1000, TICK_PHASE_MS, now + next));
}

/** Cards whose new tails are drawn in one frame (drawTails). */
const TAILS_PER_FRAME = 4;
/** Whether drawTails goes on in the next frame: tails that come meanwhile join it. */
let drawingTails = false;

/**
 * Draws the tails that came in a few cards a frame, each few in a task of its own: a new state that
 * arrives meanwhile is drawn after the frame at hand, not after the whole round. Laying out a round
 * of a page's tails at once took a renderer 50 to 190 ms on this machine (its glyphs no font had were
 * looked up on each layout), and a state change behind it waited as long (bench/web.ts).
 */
function drawTails(): void {
  let count = 0;
  for (const [id, tail] of pendingTails) {
    pendingTails.delete(id);
    model.setTail(id, tail);
    if (++count === TAILS_PER_FRAME) break;
  }
  drawingTails = pendingTails.size > 0;
  draw();
  // After this frame's draw (its callback was asked for first), in a task of its own.
  if (drawingTails) requestAnimationFrame(() => setTimeout(drawTails));
}
void navigator.serviceWorker?.register('/sw.js').catch(() => {});
// For tests and people in the console: the page's models, read-only.
(window as unknown as { corral: object }).corral = {
  cards: () => model.sorted().map((card) => card.info as AgentInfo),
  hosts: () => hostsView.hosts,
  terminalText: () => agentView?.terminalView?.text() ?? null,
  connected: () => rpc.open,
};
// A token in the address bar (the printed URL opened again) signs in anew before anything connects.
void signIn().then(() => {
  rpc.start();
  route();
});
