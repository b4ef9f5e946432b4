import type { AgentInfo } from '../../protocol/methods/agent.ts';
import type { LeaseInfo } from '../wire.ts';
import { age, budgetBadge, el, metadataLabels, usageLabel } from './format.ts';
import { lastDecisionLine } from './policy-view.ts';
import { renderPrompt, type PagePrompt } from './prompt-view.ts';
import type { PageRpc, RpcError } from './rpc.ts';
import { TerminalView } from './terminal-view.ts';

/** Where a card's agent is (with --fleet) and its reminder, as its card carries them. */
interface Where {
  host?: string;
  stale?: boolean;
  inbox?: { id: number } | null;
}

/**
 * One agent's page: its state and what decided it, the question and its choices when it is blocked,
 * a prompt box when it is not, its live terminal, and its recent events.
 */
export class AgentView {
  readonly root = el('div', 'agent');
  private readonly head = el('div', 'agent-head');
  private readonly action = el('div', 'agent-action');
  private readonly termBox = el('div', 'term');
  private readonly termBar = el('div', 'term-bar');
  private readonly notice = el('div', 'notice');
  /** What the approval policy last did on this pane's prompts (policy.check's `last`), read as its state changes. */
  private readonly policyLine = el('div', 'policy-decision');
  private policyReadFor = '';
  private readonly events = el('ol', 'events');
  private terminal: TerminalView | null = null;
  /** Output that came before terminal.open's reply (its redraw does): written once the terminal exists. */
  private early: { data: string; redraw: boolean }[] = [];
  /** What the action area shows: the prompt drawn (its id, question and choices), '' the composer, null neither. */
  private shownPrompt: string | null = null;
  private info: AgentInfo | null = null;
  private where: Where = {};
  /** The terminal ended with its daemon (or, with --fleet, its host): opened again once that is back. */
  private lost = false;
  private closed = false;

  constructor(
    private readonly rpc: PageRpc,
    readonly id: string,
  ) {
    const explain = el('details', 'explain', '', el('summary', '', 'Why this state'));
    const explainText = el('pre', 'explain-text');
    explain.append(explainText);
    explain.ontoggle = () => {
      if (explain.open) void this.rpc.call('agent.explain', { target: id }).then((result) => (explainText.textContent = describeExplain(result)), (error: RpcError) => (explainText.textContent = error.message));
    };
    this.root.append(this.head, this.policyLine, this.action, this.notice, this.termBar, this.termBox, explain, el('h3', '', 'Recent events'), this.events);
  }

  /** Opens the terminal and reads the events; called on (re)connect. */
  async open(): Promise<void> {
    this.terminal?.dispose();
    this.terminal = null;
    this.early = [];
    const opened = await this.rpc.call('terminal.open', { target: this.id });
    if (this.closed) return;
    if (this.lost) this.say('');
    this.lost = false;
    this.termBox.replaceChildren();
    this.terminal = new TerminalView(this.termBox, this.rpc, opened.id, opened.cols, opened.rows);
    this.terminal.onRefused = (why) => this.say(why);
    for (const { data, redraw } of this.early) this.terminal.output(data, redraw);
    this.early = [];
    this.setLease(opened.lease);
    void this.loadEvents();
  }

  close(): void {
    this.closed = true;
    if (this.rpc.open) void this.rpc.call('terminal.close', { target: this.id }).catch(() => {});
    this.terminal?.dispose();
  }

  get terminalView(): TerminalView | null {
    return this.terminal;
  }

  output(data: string, redraw: boolean): void {
    if (this.terminal) this.terminal.output(data, redraw);
    else this.early.push({ data, redraw });
  }

  get terminalLost(): boolean {
    return this.lost;
  }

  ended(reason: string): void {
    if (reason === 'daemon_gone') this.lost = true;
    this.say(reason === 'exited' ? 'The pane exited.' : `The terminal ended (${reason}).`);
  }

  private say(text: string): void {
    this.notice.textContent = text;
  }

  setLease(lease: LeaseInfo): void {
    if (this.terminal) this.terminal.leaseMine = lease.mine;
    const take = el('button', '', lease.mine ? 'Release control' : 'Take control');
    take.disabled = lease.holder !== null && !lease.mine;
    take.onclick = () => void this.rpc.call(lease.mine ? 'lease.release' : 'lease.take', { target: this.id }).then((next) => this.setLease(next), (error: RpcError) => this.say(error.message));
    const who = lease.holder === null ? 'Read-only: nobody is typing.' : lease.mine ? 'You have control: keys go to the pane.' : `${lease.holder} has control.`;
    const parts: HTMLElement[] = [el('span', 'lease', who), take];
    if (lease.mine) {
      const fit = el('button', '', 'Resize pane to this window');
      fit.onclick = () => {
        const size = this.terminal?.proposed();
        if (size) void this.rpc.call('terminal.resize', { target: this.id, ...size }).catch((error: RpcError) => this.say(error.message));
      };
      parts.push(fit);
    }
    this.termBar.replaceChildren(...parts);
    if (this.info) this.update(this.info, this.where);
  }

  /** Draws the agent; with --fleet `where` names its host, and whether its state is the last known (the host away). */
  update(info: AgentInfo, where: Where = {}): void {
    this.info = info;
    this.where = where;
    this.readPolicy(info);
    const name = info.name ?? info.id;
    this.head.replaceChildren(
      el('a', 'back', '← all agents'),
      el('h2', '', name),
      el('span', `badge badge-${info.state}`, `${info.state} ${age(info.stateSince)}${where.stale ? ' (stale: its host is away)' : ''}`),
      ...[budgetBadge(info.usage)].filter((node): node is HTMLElement => node !== null),
      el('div', 'card-meta', [info.agent ?? 'no agent', `@${info.workspace}`, where.host !== undefined ? `on ${where.host}` : '', `by ${info.source}`, info.queued > 0 ? `${info.queued} queued` : '', usageLabel(info.usage)].filter(Boolean).join(' · ')),
      ...metadataLabels(info.metadata).map((label) => el('span', 'chip', label)),
      ...(where.inbox && where.stale !== true ? [this.reminder(where.inbox.id)] : []),
    );
    (this.head.firstChild as HTMLAnchorElement).href = '#/';
    const prompt = (info as AgentInfo & { prompt?: PagePrompt | null }).prompt ?? null;
    if (info.state === 'blocked' && prompt) {
      // The same dialog drawn further keeps its id and shows more choices: redrawn for those too.
      const shown = JSON.stringify([prompt.id, prompt.text, prompt.choices]);
      if (this.shownPrompt === shown) return;
      this.shownPrompt = shown;
      this.action.replaceChildren(renderPrompt(prompt, (body) => this.answer(prompt, body)));
    } else if (info.state === 'blocked') {
      this.shownPrompt = null;
      this.action.replaceChildren(el('section', 'prompt', 'Blocked: read the terminal below for what it asks.'));
    } else if (this.shownPrompt !== '' ) {
      this.shownPrompt = '';
      this.action.replaceChildren(this.composer());
    }
  }

  /** The agent's reminder (its inbox item), dismissed on purpose for every device; looking at the page keeps it. */
  private reminder(item: number): HTMLElement {
    const dismiss = el('button', 'secondary dismiss-reminder', 'Dismiss reminder');
    dismiss.title = 'Take the reminder off every device; the agent still needs you while it is blocked';
    dismiss.onclick = () => {
      dismiss.disabled = true;
      this.rpc.call('inbox.dismiss', { target: this.id, item }).catch((error: RpcError) => {
        dismiss.disabled = false;
        this.say(error.message);
      });
    };
    return el('div', 'agent-reminder', '', el('span', 'inbox-dot', '●'), el('span', '', ' A reminder is out for this agent. '), dismiss);
  }

  private async answer(prompt: PagePrompt, body: { choice?: string; text?: string }): Promise<void> {
    try {
      await this.rpc.call('agent.answer', { target: this.id, promptId: prompt.id, ...body });
    } catch (error) {
      const failure = error as RpcError;
      if (failure.code === 'prompt_changed') {
        // Another prompt is on the screen now: show it, and type nothing.
        this.shownPrompt = null;
        const current = failure.data.prompt as PagePrompt | undefined;
        this.say('The question changed before your answer: nothing was typed. Here is the new one.');
        if (this.info && current) this.update({ ...this.info, prompt: current } as AgentInfo, this.where);
        return;
      }
      throw new Error(failure.message);
    }
  }

  private composer(): HTMLElement {
    const box = el('form', 'composer');
    const input = el('textarea');
    input.rows = 3;
    input.placeholder = 'Prompt for the agent';
    // Send queues while the agent works (the daemon's default); Type now types into the working agent.
    const send = el('button', '', 'Send');
    send.type = 'submit';
    const now = el('button', 'secondary', 'Type now');
    now.type = 'button';
    const status = el('div', 'prompt-status');
    const submit = (options: { now?: boolean; composer?: 'replace' | 'append' } = {}) => {
      const text = input.value.trim();
      if (text === '') return;
      const request = { target: this.id, text, ...(options.now ? { queue: false } : {}), ...(options.composer ? { composer: options.composer } : {}) };
      this.rpc.call('agent.prompt', request).then(
        (result) => {
          input.value = '';
          status.replaceChildren('queued' in result ? `Queued at position ${result.position}: typed when the agent is next idle.` : 'Sent.');
        },
        (error: RpcError) => {
          if (error.code !== 'composer_not_empty') return void status.replaceChildren(error.message);
          // The agent's input box holds a draft: say what it is and let the person choose.
          const replace = el('button', 'secondary', 'Replace it');
          replace.type = 'button';
          replace.onclick = () => submit({ ...options, composer: 'replace' });
          const append = el('button', 'secondary', 'Append to it');
          append.type = 'button';
          append.onclick = () => submit({ ...options, composer: 'append' });
          status.replaceChildren(`Its input box holds: "${String(error.data['draft'] ?? '')}"`, el('div', 'composer-buttons', '', replace, append));
        },
      );
    };
    box.onsubmit = (event) => {
      event.preventDefault();
      submit();
    };
    now.onclick = () => submit({ now: true });
    box.append(input, el('div', 'composer-buttons', '', send, now), status);
    return box;
  }

  /** The policy's last decision on the pane, read again once per state the agent enters. */
  private readPolicy(info: AgentInfo): void {
    const key = `${info.state}#${info.stateSince}`;
    if (key === this.policyReadFor || !this.rpc.open) return;
    this.policyReadFor = key;
    void this.rpc.call('policy.check', { target: this.id }).then(
      ({ last }) => {
        if (!this.closed) this.policyLine.textContent = last === null ? '' : lastDecisionLine(last);
      },
      () => {}, // a daemon with no policy methods (before 2.7): no line
    );
  }

  private async loadEvents(): Promise<void> {
    const read = await this.rpc.call('pane.events', { target: this.id, limit: 10_000 }).catch(() => null);
    if (read === null || this.closed) return;
    const recent = read.events.slice(-15).reverse();
    this.events.replaceChildren(...recent.map((event) => el('li', '', `${new Date(event.ts).toLocaleTimeString()} ${event.kind} ${summary(event.data as Record<string, unknown>)}`)));
  }
}

function summary(data: Record<string, unknown>): string {
  if ('from' in data && 'to' in data) return `${data.from} → ${data.to}${data.source ? ` (${data.source})` : ''}`;
  if ('state' in data) return String(data.state);
  return '';
}

function describeExplain(result: { agent: AgentInfo; arbiter?: unknown; detection?: unknown }): string {
  return `${result.agent.state} by ${result.agent.rule}: ${result.agent.source}\n\n${JSON.stringify({ arbiter: result.arbiter, detection: result.detection }, null, 2)}`;
}
