import type { UsageTokens } from '../../protocol/usage.ts';
import type { UsageEntry } from './record-formats.ts';

const HOUR = 3_600_000;
/** Hours of usage kept per record, for `usage.report --since` and budgets by day and week. */
export const KEPT_HOURS = 8 * 24;
/** Message keys remembered for replacement: the lines of one message come together, so a few suffice. */
const KEPT_KEYS = 512;

export const ZERO: Readonly<UsageTokens> = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

export function addTokens(to: UsageTokens, add: UsageTokens, sign = 1): UsageTokens {
  to.input += sign * add.input;
  to.output += sign * add.output;
  to.cacheRead += sign * add.cacheRead;
  to.cacheWrite += sign * add.cacheWrite;
  return to;
}

export function tokenSum(tokens: UsageTokens): number {
  return tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite;
}

/** What one record's ledger keeps across restarts. */
export interface StoredLedger {
  models: Record<string, UsageTokens>;
  /** Hour start (ms) → model → tokens. */
  hours: Record<string, Record<string, UsageTokens>>;
  model: string | null;
}

/**
 * One agent record's usage: totals per model, and the same by the hour it was spent in (the line's own
 * time, else when it was read), so a period's spend is a sum of hours.
 */
export class UsageLedger {
  readonly models = new Map<string, UsageTokens>();
  private readonly hours = new Map<number, Map<string, UsageTokens>>();
  private readonly keys = new Map<string, { entry: UsageEntry; hour: number }>();
  model: string | null = null;

  static from(stored: StoredLedger): UsageLedger {
    const ledger = new UsageLedger();
    for (const [model, tokens] of Object.entries(stored.models)) ledger.models.set(model, { ...ZERO, ...tokens });
    for (const [hour, models] of Object.entries(stored.hours)) {
      ledger.hours.set(Number(hour), new Map(Object.entries(models).map(([model, tokens]) => [model, { ...ZERO, ...tokens }])));
    }
    ledger.model = stored.model;
    return ledger;
  }

  add(entry: UsageEntry, now: number): void {
    const hour = Math.floor((entry.at ?? now) / HOUR) * HOUR;
    if (entry.key !== null) {
      const earlier = this.keys.get(entry.key);
      if (earlier) this.apply(earlier.entry, earlier.hour, -1);
      this.keys.delete(entry.key);
      this.keys.set(entry.key, { entry, hour });
      if (this.keys.size > KEPT_KEYS) this.keys.delete(this.keys.keys().next().value!);
    }
    this.apply(entry, hour, 1);
    this.model = entry.model;
  }

  /** Tokens per model spent at or after `since` (whole hours: the hour holding `since` counts). */
  since(since: number): Map<string, UsageTokens> {
    const from = Math.floor(since / HOUR) * HOUR;
    const sums = new Map<string, UsageTokens>();
    for (const [hour, models] of this.hours) {
      if (hour < from) continue;
      for (const [model, tokens] of models) sums.set(model, addTokens(sums.get(model) ?? { ...ZERO }, tokens));
    }
    return sums;
  }

  prune(now: number): void {
    for (const hour of this.hours.keys()) if (hour < now - KEPT_HOURS * HOUR) this.hours.delete(hour);
  }

  clear(): void {
    this.models.clear();
    this.hours.clear();
    this.keys.clear();
    this.model = null;
  }

  toJSON(): StoredLedger {
    const hours: StoredLedger['hours'] = {};
    for (const [hour, models] of this.hours) hours[String(hour)] = Object.fromEntries(models);
    return { models: Object.fromEntries(this.models), hours, model: this.model };
  }

  private apply(entry: UsageEntry, hour: number, sign: number): void {
    this.models.set(entry.model, addTokens(this.models.get(entry.model) ?? { ...ZERO }, entry.tokens, sign));
    let models = this.hours.get(hour);
    if (!models) this.hours.set(hour, (models = new Map()));
    models.set(entry.model, addTokens(models.get(entry.model) ?? { ...ZERO }, entry.tokens, sign));
  }
}
