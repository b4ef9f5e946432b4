// Watches one daemon from the side while the CLI drives it: every event as it arrives (for timings),
// and the pane's detection screen polled often, so a screen change can be lined up with the state
// the daemon published for it. Reads never mark the pane seen.
import { DaemonConnection } from '../../src/cli/with-daemon.ts';
import { AGENT_READ } from '../../src/protocol/methods/agent-query.ts';
import { EVENTS_SUBSCRIBE } from '../../src/protocol/methods/events.ts';
import { EVENT, type EventEnvelope } from '../../src/protocol/notifications.ts';
import { CorralError } from '../../src/protocol/errors.ts';

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
  /** Every event of the run, carried across daemon restarts (cursors and the epoch outlive a restart). */
  readonly events: SeenEvent[] = [];
  /** Index in `events` of the first event received from this daemon. */
  private fromIndex = 0;
  /** The last cursor received and the stream's epoch: where a successor resumes. */
  cursor = 0;
  epoch = '';
  /** How resuming after a restart went: null for a first start, else `resumed` or why it could not. */
  resume: string | null = null;
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
   * Connects to the daemon and subscribes from now (start it before the pane is spawned, so it sees
   * the pane's first events). `carry`: the observer of the daemon this one replaced (a restart): its
   * events, screens and marks go on here, and the stream resumes after its last cursor with its epoch,
   * as a client that outlives a restart does; `stream_changed` or `cursor_too_old` (a lost or damaged
   * log) subscribes from now and says so in `resume`.
   */
  static async start(socket: string, target: string, carry?: Observer): Promise<Observer> {
    const client = await DaemonConnection.connect(socket);
    const observer = new Observer(client, target);
    if (carry) {
      observer.events.push(...carry.events);
      observer.fromIndex = observer.events.length;
      observer.screens.push(...carry.screens);
      for (const [name, mark] of carry.marks) observer.marks.set(name, mark);
      observer.screen = carry.screen;
      observer.title = carry.title;
      observer.cursor = carry.cursor;
    }
    client.onNotification(EVENT, (event) => {
      const envelope = event as EventEnvelope<string, any>;
      if (envelope.cursor <= observer.cursor) return;
      observer.cursor = envelope.cursor;
      observer.events.push({ receivedAt: Date.now(), event: envelope });
    });
    let subscribed;
    if (carry) {
      try {
        subscribed = await client.call(EVENTS_SUBSCRIBE, { since: carry.cursor, epoch: carry.epoch });
        observer.resume = `resumed after cursor ${carry.cursor} of epoch ${carry.epoch}`;
      } catch (error) {
        if (!(error instanceof CorralError) || (error.code !== 'stream_changed' && error.code !== 'cursor_too_old')) throw error;
        observer.resume = `${error.code}: ${error.message}`;
      }
    }
    subscribed ??= await client.call(EVENTS_SUBSCRIBE, {});
    // Notifications come after `subscribed.cursor`; a first start resumes from there after a restart.
    if (!carry) observer.cursor = Math.max(observer.cursor, subscribed.cursor);
    if (carry && observer.resume?.startsWith('resumed') && subscribed.epoch !== carry.epoch) observer.resume = `epoch changed from ${carry.epoch} to ${subscribed.epoch}`;
    observer.epoch = subscribed.epoch;
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

  /** The pane's stateChanged events in order, as this daemon published them (not those before a restart). */
  stateChanges(): SeenEvent[] {
    return this.events.slice(this.fromIndex).filter((e) => e.event.kind === 'agent.stateChanged');
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
