/** How many messages of one kind each key may log per window; enough to see a problem begin. */
export const LOG_BURST = 5;
/** The window over which LOG_BURST applies. */
export const LOG_WINDOW_MS = 60_000;
/** Keys remembered at once; the oldest is forgotten first (a forgotten key starts a fresh window). */
const MAX_KEYS = 4096;

/**
 * Rate limit for repeated log lines, by key (a pane and a message): at most `burst` per window.
 * `admit` answers null to drop a line, or how many were dropped since the last one let through, so
 * the next line can say so.
 */
export class RateLimit {
  private readonly windows = new Map<string, { start: number; count: number; dropped: number }>();

  constructor(
    private readonly burst = LOG_BURST,
    private readonly windowMs = LOG_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  admit(key: string): number | null {
    const now = this.now();
    let window = this.windows.get(key);
    if (window === undefined || now - window.start >= this.windowMs) {
      const dropped = window?.dropped ?? 0;
      this.windows.delete(key);
      if (this.windows.size >= MAX_KEYS) this.windows.delete(this.windows.keys().next().value!);
      window = { start: now, count: 0, dropped };
      this.windows.set(key, window);
    }
    if (window.count >= this.burst) {
      window.dropped += 1;
      return null;
    }
    window.count += 1;
    const dropped = window.dropped;
    window.dropped = 0;
    return dropped;
  }

  /** Forgets every key that starts with `prefix` (a pane that went away). */
  forget(prefix: string): void {
    for (const key of this.windows.keys()) if (key.startsWith(prefix)) this.windows.delete(key);
  }
}
