import { LiveAgents, LiveFeed, liveSourceOf, needsYou, type AgentInfo, type CorralClient, type InboxItem } from '../client/index.ts';

/** How long acknowledge_attention waits for the daemon's event to reach the live picture. */
const SETTLE_MS = 2000;

/**
 * What the attention tools answer from: one live picture of this machine's daemon
 * (src/client/live-agents.ts, as top and the web board keep it), started at the first call that asks
 * and kept by the daemon's events alone, so a later call reads nothing. One per `corral mcp`.
 */
export class LiveAttention {
  private feed: LiveFeed | null = null;
  private started: Promise<LiveAgents> | null = null;

  constructor(private readonly client: CorralClient) {}

  /** The live picture, whole (snapshot and inbox) once this resolves. */
  live(): Promise<LiveAgents> {
    if (this.started === null) {
      const feed = new LiveFeed(liveSourceOf(this.client), new LiveAgents());
      this.feed = feed;
      this.started = feed.start().then(
        () => feed.live,
        (error: unknown) => {
          // Tried again at the next call, not remembered as down.
          this.close();
          throw error;
        },
      );
    }
    return this.started;
  }

  /** The agents that need the person (`needsYou`) and the inbox's items, oldest first. */
  async attention(): Promise<{ needsYou: ReturnType<typeof summary>[]; items: InboxItem[] }> {
    const live = await this.live();
    return {
      needsYou: live.list().filter((info) => needsYou(info.state)).map(summary),
      items: [...live.inbox.items(), ...live.inbox.budgetItems()].sort((a, b) => a.id - b.id),
    };
  }

  /**
   * Resolves once none of `ids` is in the live inbox: the daemon told its subscribers before it answered
   * inbox.ack, but on another connection, so the next attention call must not list them again.
   */
  async settled(ids: readonly number[]): Promise<void> {
    const live = await this.live();
    const held = () => [...live.inbox.items(), ...live.inbox.budgetItems()].some((item) => ids.includes(item.id));
    if (!held()) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, SETTLE_MS);
      const listening = live.onChange(() => {
        if (!held()) done();
      });
      function done(): void {
        clearTimeout(timer);
        listening.dispose();
        resolve();
      }
    });
  }

  close(): void {
    this.feed?.dispose();
    this.feed?.live.dispose();
    this.feed = null;
    this.started = null;
  }
}

/** What a model needs of an agent that needs the person: who, what state, what it asks. */
function summary(info: AgentInfo) {
  return { id: info.id, name: info.name, agent: info.agent, state: info.state, title: info.title, ...(info.prompt ? { prompt: info.prompt } : {}) };
}
