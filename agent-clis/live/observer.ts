// Watches one daemon from the side while the CLI drives it: every event as it arrives (for timings),
// and the pane's detection screen polled often, so a screen change can be lined up with the state
// the daemon published for it. Reads never mark the pane seen.
import { DaemonConnection } from '../../src/cli/with-daemon.ts';
import { AGENT_READ } from '../../src/protocol/methods/agent-query.ts';
import { EVENTS_SUBSCRIBE } from '../../src/protocol/methods/events.ts';
import { EVENT, type EventEnvelope } from '../../src/protocol/notifications.ts';

/** Poll period of the screen probe; a screen time is late by up to this much. */
export const SCREEN_POLL_MS = 100;

/** At most this many distinct screens are kept for the timeline dump. */
export const MAX_SCREENS = 3000;

export interface ScreenSample {
  at: number;
  text: string;
  title: string | null;
}

export interface SeenEvent {
  receivedAt: number;
  event: EventEnvelope<string, any>;
}

interface ScreenMark {
  pattern: RegExp;
  armedAt: number;
  seenAt: number | null;
  goneAt: number | null;
}

export class Observer {
  readonly events: SeenEvent[] = [];
  private readonly marks = new Map<string, ScreenMark>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  screen = '';
  title: string | null = null;
  /** When the probe last saw the screen or title change. */
  changedAt = 0;
  /** Each distinct screen (with its title) the probe saw, with the poll time it was first seen. */
  readonly screens: ScreenSample[] = [];

  private constructor(
    private readonly client: DaemonConnection,
    private readonly target: string,
  ) {}

  /**
   * Connects to the daemon and subscribes from its first event. `carry`: an observer of the daemon
   * this one replaced (a restart): its screens and marks go on here; events start again (a new epoch).
   */
  static async start(socket: string, target: string, carry?: Observer): Promise<Observer> {
    const client = await DaemonConnection.connect(socket);
    const observer = new Observer(client, target);
    if (carry) {
      observer.screens.push(...carry.screens);
      for (const [name, mark] of carry.marks) observer.marks.set(name, mark);
      observer.screen = carry.screen;
      observer.title = carry.title;
    }
    client.onNotification(EVENT, (event) => observer.events.push({ receivedAt: Date.now(), event: event as EventEnvelope<string, any> }));
    await client.call(EVENTS_SUBSCRIBE, { since: 0 });
    observer.timer = setInterval(() => void observer.poll(), SCREEN_POLL_MS);
    return observer;
  }

  /** Records the first poll, from now on, at which `pattern` is on the pane's screen (or its title), and when it left. */
  arm(name: string, pattern: RegExp): void {
    this.marks.set(name, { pattern, armedAt: Date.now(), seenAt: null, goneAt: null });
  }

  seenAt(name: string): number | null {
    return this.marks.get(name)?.seenAt ?? null;
  }

  goneAt(name: string): number | null {
    return this.marks.get(name)?.goneAt ?? null;
  }

  /** The pane's stateChanged events in order. */
  stateChanges(): SeenEvent[] {
    return this.events.filter((e) => e.event.kind === 'agent.stateChanged');
  }

  /** The first stateChanged to `to` published at or after `since`. */
  changeTo(to: string, since: number): SeenEvent | undefined {
    return this.stateChanges().find((e) => e.event.data.to === to && e.event.ts >= since);
  }

  /** The last screen the probe saw at or before `at`. */
  screenAt(at: number): ScreenSample | undefined {
    let found: ScreenSample | undefined;
    for (const sample of this.screens) {
      if (sample.at > at) break;
      found = sample;
    }
    return found;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const read = await this.client.call(AGENT_READ, { target: this.target, source: 'detection' });
      const now = Date.now();
      if (read.text !== this.screen || read.title !== this.title) {
        this.changedAt = now;
        if (this.screens.length < MAX_SCREENS) this.screens.push({ at: now, text: read.text, title: read.title });
      }
      this.screen = read.text;
      this.title = read.title;
      const text = `${read.text}\n${read.title ?? ''}`;
      for (const mark of this.marks.values()) {
        const on = mark.pattern.test(text);
        if (on && mark.seenAt === null) mark.seenAt = now;
        if (!on && mark.seenAt !== null && mark.goneAt === null) mark.goneAt = now;
      }
    } catch {
      // The pane may be gone at the end; the driver reports that through the CLI.
    } finally {
      this.polling = false;
    }
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.client.dispose();
  }
}
