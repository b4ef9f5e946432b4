import type { Disposable } from '../base/disposable.ts';
import { EVENT } from '../protocol/notifications.ts';
import { EVENTS_SUBSCRIBE, type AnyCorralEvent } from '../protocol/methods/events.ts';
import { INBOX_LIST } from '../protocol/methods/inbox.ts';
import type { DaemonConnection } from './connection.ts';
import type { AgentInfo } from '../protocol/methods/agent.ts';
import type { InboxItem } from '../protocol/methods/inbox.ts';
import type { LiveAgents } from './live-agents.ts';
import type { Subscription } from './subscription.ts';

/** What a LiveFeed asks of one daemon, through a CorralClient (`liveSourceOf` in index.ts). */
export interface LiveSource {
  /** A resumable subscription to every event (`CorralClient.subscribe({}, onEvent)`). */
  subscribe(onEvent: (event: AnyCorralEvent) => void): Promise<Subscription>;
  /** `inbox.list`'s items. */
  inbox(): Promise<InboxItem[]>;
  /** `agent.get`: asked only of a daemon before 2.7, whose events do not carry the agent. */
  agent(id: string): Promise<AgentInfo>;
}

/** How long a feed waits before it subscribes again after its stream ended. */
const RESUBSCRIBE_MS = 500;

/**
 * Feeds `live` from one daemon on this connection, for as long as it lasts (`corral top`): subscribes,
 * applies the snapshot, then lists the inbox on the same connection. Resolves once the first picture
 * is whole; disposing stops feeding.
 */
export async function followConnection(connection: DaemonConnection, live: LiveAgents): Promise<Disposable> {
  const listening = connection.onNotification(EVENT, (event) => live.apply(event as AnyCorralEvent));
  try {
    live.reset((await connection.call(EVENTS_SUBSCRIBE, {})).snapshot.agents);
    live.applyInboxList((await connection.call(INBOX_LIST, {})).items);
  } catch (error) {
    listening.dispose();
    throw error;
  }
  return listening;
}

/**
 * Feeds `live` from one daemon through a client's subscription, which resumes by itself across drops
 * (`corral web`); a stream that cannot resume (the daemon came back with another epoch) starts over
 * from a new snapshot.
 */
export class LiveFeed implements Disposable {
  private subscription: Subscription | null = null;
  private closed = false;
  private readonly incomplete: Disposable;

  constructor(
    private readonly source: LiveSource,
    readonly live: LiveAgents,
  ) {
    // A daemon before 2.7: its events do not carry the agent, which is read whole instead.
    this.incomplete = live.onChange((change) => {
      if (change.kind !== 'incomplete' || this.closed) return;
      source.agent(change.id).then(
        (info) => live.take(info),
        () => {}, // the pane went away meanwhile: its removal event says so
      );
    });
  }

  /** Resolves once the first picture (snapshot and inbox) is whole. */
  async start(): Promise<void> {
    this.live.restart();
    const subscription = await this.source.subscribe((event) => this.live.apply(event));
    if (this.closed) return subscription.close();
    this.subscription = subscription;
    this.live.reset(subscription.snapshot.agents);
    // Listed after subscribing: an item acknowledged meanwhile is in both, and InboxView keeps it out.
    this.live.applyInboxList(await this.source.inbox());
    subscription.ended.then(
      () => undefined,
      () => this.again(),
    );
  }

  dispose(): void {
    this.closed = true;
    this.incomplete.dispose();
    this.subscription?.close();
  }

  private again(): void {
    if (this.closed) return;
    const retry = setTimeout(() => {
      if (!this.closed) this.start().catch(() => this.again());
    }, RESUBSCRIBE_MS);
    retry.unref();
  }
}
