/** How long an automatic answer counts against its pane's limit. */
export const LOOP_WINDOW_MS = 60_000;

/**
 * At most `limit` automatic answers per pane in any minute: a pane that loops on one prompt (an
 * agent retrying what the policy allows) is stopped and its prompts go to the person.
 */
export class LoopGuard {
  private readonly answers = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether another automatic answer is within the limit; counts it when it is. */
  admit(paneId: string, limit: number): boolean {
    const now = this.now();
    const recent = (this.answers.get(paneId) ?? []).filter((at) => now - at < LOOP_WINDOW_MS);
    if (recent.length >= limit) {
      this.answers.set(paneId, recent);
      return false;
    }
    recent.push(now);
    this.answers.set(paneId, recent);
    return true;
  }

  forget(paneId: string): void {
    this.answers.delete(paneId);
  }
}
