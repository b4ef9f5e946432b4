import type { InboxItem } from '../../protocol/methods/inbox.ts';
import type { CorralEvent } from '../../protocol/methods/events.ts';
import type { AgentPrompt, PromptChoice } from '../../protocol/prompt.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { Logger } from '../logger.ts';
import type { AnswerTokens } from './answer-tokens.ts';
import { answerActions } from './answer-actions.ts';
import type { DeviceStore, StoredDevice } from './device-store.ts';
import { attentionPayload, encodePayload, resolvedPayload, type PushPayload } from './push-payload.ts';
import type { PushSender } from './push-sender.ts';
import { deliveryOf } from './delivery-rules.ts';
import type { Webhook } from './webhook.ts';

/**
 * How long a blocked item waits for its prompt to be read whole before it is pushed anyway (saying
 * "open to answer"): Gemini CLI's and Codex's permission prompts are published incomplete and completed
 * under the same id 10 to 20 ms later (docs/captures.md).
 */
export const COMPLETE_WAIT_MS = 500;
/**
 * How long a whole prompt's push waits for the approval policy to decide it, when the policy may answer
 * it by itself (its answer arrives in tens of ms, bench/RESULTS.md): a person is not called for a prompt
 * answered before they could look. Past it, the push goes out anyway.
 */
export const POLICY_WAIT_MS = 2000;

/** Where items come from: the inbox tells each once, when it enters, and lists those not yet acknowledged. */
export interface AttentionSource {
  onAdded(listener: (item: InboxItem) => void): Disposable;
  list(): InboxItem[];
}

export interface PushChannelOptions {
  attention: AttentionSource;
  hub: EventHub;
  devices: DeviceStore;
  sender: PushSender;
  tokens: AnswerTokens;
  /** The answer buttons a prompt may have: its safe choices (src/protocol/prompt.ts). */
  buttons(prompt: AgentPrompt): PromptChoice[];
  /** Whether the approval policy may answer this complete prompt itself in a moment (daemon/policy/). */
  policyMayAnswer?(paneId: string, promptId: string): boolean;
  /** This machine's name, in every notification. */
  host: string;
  /** RFC 8030 TTL of a push, and the life of its answer tokens. */
  ttlSeconds: number;
  /** `[notify] quiet_hours`, for the receivers with none of their own. */
  quietHours: string | null;
  /** `[notify.webhook]`, when set: offered each item as the devices are. */
  webhook?: Webhook;
  log: Logger;
  now?: () => number;
}

/** A quiet hours' end is acted on this long after its minute turns (quiet-hours.ts counts whole minutes). */
const QUIET_END_MARGIN_MS = 50;

/**
 * The Web Push channel beside the notify command: each inbox item is pushed once to each device that
 * wants its state (the devices file records what each was pushed, so a restart pushes nothing twice, and
 * pushes what a crash left unsent), with answer tokens for a complete prompt's safe choices. An item
 * acknowledged after it was pushed is pushed again, quietly, under the same tag: it replaces the question.
 */
export class PushChannel implements Disposable {
  private readonly subscriptions = new DisposableStore();
  /** Blocked items waiting for their prompt to be read whole, by pane. */
  private readonly waiting = new Map<string, { item: InboxItem; timer: NodeJS.Timeout }>();
  /** Items acknowledged while their push to a device was on its way, by `device item`: replaced once it lands. */
  private readonly replaceOnArrival = new Map<string, InboxItem>();
  /** Items pushed in this daemon's life, by id: what an acknowledgement replaces. */
  private readonly pushed = new Map<number, InboxItem>();
  /** Pushes queued and not yet told (`device item`): an item offered again meanwhile is not pushed twice. */
  private readonly sending = new Set<string>();
  /** The prompt each blocked pane shows now, as its events said: a held item is pushed with it, not with the one it entered with. */
  private readonly prompts = new Map<string, AgentPrompt>();
  /** Wakes the channel when the first quiet hours holding an item end. */
  private quietTimer: { at: number; timer: NodeJS.Timeout } | null = null;
  private readonly now: () => number;

  constructor(private readonly options: PushChannelOptions) {
    const { attention, hub } = options;
    this.now = options.now ?? Date.now;
    this.subscriptions.add(attention.onAdded((item) => this.take(item)));
    this.subscriptions.add(hub.onPublish(({ event }) => this.observe(event)));
    for (const item of attention.list()) this.take(item);
  }

  dispose(): void {
    this.subscriptions.dispose();
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    if (this.quietTimer) clearTimeout(this.quietTimer.timer);
    this.quietTimer = null;
  }

  /**
   * Pushes an item to every device that wants it now and has not had it yet, and offers it to the
   * webhook. A receiver in its quiet hours gets it when they end, if it is still unacknowledged; a
   * spent budget goes at once (src/daemon/push/delivery-rules.ts).
   */
  push(item: InboxItem): void {
    const now = new Date(this.now());
    const { devices, quietHours, webhook } = this.options;
    const later = webhook?.offer(item, quietHours, now);
    if (later && 'hold' in later) this.wakeIn(later.hold);
    const due: StoredDevice[] = [];
    for (const device of devices.list()) {
      if (devices.wasPushed(device, item.id) || this.sending.has(`${device.id} ${item.id}`)) continue;
      const delivery = deliveryOf(item, device, quietHours, now);
      if ('hold' in delivery) this.wakeIn(delivery.hold);
      else if ('send' in delivery) due.push(device);
    }
    if (due.length === 0) return;
    this.pushed.set(item.id, item);
    while (this.pushed.size > 1000) this.pushed.delete(this.pushed.keys().next().value!);
    const payload = attentionPayload(item, this.options.host, answerActions(item, this.options));
    for (const device of due) {
      const key = `${device.id} ${item.id}`;
      this.sending.add(key);
      this.deliver(device, payload, item, (_status, error) => {
        this.sending.delete(key);
        // Acknowledged while this push was on its way: its replacement follows it.
        const acknowledged = this.replaceOnArrival.get(key);
        this.replaceOnArrival.delete(key);
        if (acknowledged && error === null) this.deliver(device, resolvedPayload(acknowledged, this.options.host), acknowledged);
      });
    }
  }

  /**
   * Offers every unacknowledged item again: what quiet hours held, or a device's new choices now want.
   * Items still waiting for their prompt or the policy are left to that wait.
   */
  offerAll(): void {
    for (const item of this.options.attention.list()) {
      if (this.waiting.get(item.pane.id)?.item.id === item.id) continue;
      const prompt = item.state === 'blocked' ? this.prompts.get(item.pane.id) : undefined;
      this.push(prompt ? { ...item, prompt } : item);
    }
  }

  /** Offers everything again once the first quiet hours holding an item are over. */
  private wakeIn(ms: number): void {
    const at = this.now() + ms + QUIET_END_MARGIN_MS;
    if (this.quietTimer && this.quietTimer.at <= at) return;
    if (this.quietTimer) clearTimeout(this.quietTimer.timer);
    const timer = setTimeout(() => {
      this.quietTimer = null;
      this.offerAll();
    }, at - this.now());
    timer.unref();
    this.quietTimer = { at, timer };
  }

  /** Sends one payload to one device; `item` is recorded as pushed once the push service takes it. */
  deliver(device: StoredDevice, payload: PushPayload, item: InboxItem | null, done?: (status: number | null, error: string | null) => void): void {
    const { devices, sender, log, ttlSeconds } = this.options;
    sender.send({
      device: device.id,
      subscription: device.subscription,
      payload: encodePayload(payload),
      ttlSeconds,
      urgency: payload.kind === 'attention' && payload.state === 'blocked' ? 'high' : 'normal',
      topic: item === null ? null : `corral-inbox-${item.id}`,
      done: (status, error) => {
        if (status !== null) devices.record(device.id, status, payload.kind === 'attention' ? item?.id ?? null : null);
        if (status === 404 || status === 410) {
          devices.remove(device.id);
          log.info({ device: device.id, status }, 'push subscription gone: device removed');
        } else if (error !== null) log.warn({ device: device.id, status, item: item?.id, error }, 'push not delivered');
        done?.(status, error);
      },
    });
  }

  private take(item: InboxItem): void {
    const prompt = item.prompt;
    const whole = prompt !== null && prompt.complete;
    if (item.state !== 'blocked' || (whole && !this.policyMayAnswer(item.pane.id, prompt))) return this.push(item);
    this.hold(item, whole ? POLICY_WAIT_MS : COMPLETE_WAIT_MS);
  }

  private policyMayAnswer(paneId: string, prompt: AgentPrompt): boolean {
    return this.options.policyMayAnswer?.(paneId, prompt.id) ?? false;
  }

  /** Keeps a blocked item back for `ms` at most: until its prompt is whole, or the policy decided it. */
  private hold(item: InboxItem, ms: number): void {
    const earlier = this.waiting.get(item.pane.id);
    if (earlier) clearTimeout(earlier.timer);
    const timer = setTimeout(() => this.release(item.pane.id), ms);
    timer.unref();
    this.waiting.set(item.pane.id, { item, timer });
  }

  /** Drops the pane's waiting item unpushed. */
  private forget(paneId: string): void {
    const waiting = this.waiting.get(paneId);
    if (waiting) clearTimeout(waiting.timer);
    this.waiting.delete(paneId);
  }

  /** Pushes the pane's waiting item, with the prompt as read now, unless it was acknowledged meanwhile. */
  private release(paneId: string, prompt?: AgentPrompt): void {
    const waiting = this.waiting.get(paneId);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.waiting.delete(paneId);
    const current = this.options.attention.list().find((other) => other.id === waiting.item.id);
    if (current) this.push(prompt ? { ...current, prompt } : current);
  }

  private observe(event: CorralEvent): void {
    const pane = event.pane?.id;
    if (pane === undefined) return;
    const { tokens } = this.options;
    if (event.kind === 'agent.promptChanged') {
      const { prompt } = (event as CorralEvent<'agent.promptChanged'>).data;
      tokens.promptLeft(pane, prompt.id);
      this.prompts.set(pane, prompt);
      const waiting = this.waiting.get(pane);
      // Whole now: pushed, unless the policy may answer it first (then held on, from now).
      if (prompt.complete && waiting && this.policyMayAnswer(pane, prompt)) this.hold({ ...waiting.item, prompt }, POLICY_WAIT_MS);
      else if (prompt.complete) this.release(pane, prompt);
    } else if (event.kind === 'policy.decided') {
      // The held prompt decided: answered by the policy, nobody is called; left to the person (ask, refused), pushed now.
      const { decision } = (event as CorralEvent<'policy.decided'>).data;
      const waiting = this.waiting.get(pane);
      if (!waiting || waiting.item.prompt?.id !== decision.promptId) return;
      if (decision.answered) this.forget(pane);
      else this.release(pane);
    } else if (event.kind === 'agent.stateChanged') {
      const { to, prompt } = (event as CorralEvent<'agent.stateChanged'>).data;
      tokens.promptLeft(pane, to === 'blocked' ? prompt?.id ?? null : null);
      if (to === 'blocked' && prompt) this.prompts.set(pane, prompt);
      else this.prompts.delete(pane);
    } else if (event.kind === 'pane.removed') {
      tokens.forgetPane(pane);
      this.prompts.delete(pane);
      this.forget(pane);
    } else if (event.kind === 'inbox.acknowledged') {
      for (const id of (event as CorralEvent<'inbox.acknowledged'>).data.ids) {
        this.replace(id);
        this.options.webhook?.resolve(id);
      }
    }
  }

  /** An item pushed in this daemon's life was acknowledged: its notification becomes a quiet one. */
  private replace(id: number): void {
    const item = this.pushed.get(id);
    if (!item) return;
    this.pushed.delete(id);
    for (const device of this.options.devices.list()) {
      if (device.pushed.includes(id)) this.deliver(device, resolvedPayload(item, this.options.host), item);
      // Its push not taken by the push service yet (a device can show it before the daemon hears back).
      else if (this.sending.has(`${device.id} ${id}`)) this.replaceOnArrival.set(`${device.id} ${id}`, item);
    }
  }
}
