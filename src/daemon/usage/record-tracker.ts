import type { AgentUsage, BudgetCrossing, UsageTokens } from '../../protocol/usage.ts';
import { lineReader, RECORD_SOURCES, type RecordFormat, type RecordLineReader } from './record-formats.ts';
import { RecordTail, type TailOutcome, type TailPosition } from './record-tail.ts';
import { UsageLedger, addTokens, ZERO, type StoredLedger } from './usage-ledger.ts';
import type { PriceTable } from './price-table.ts';

/** What a tracker keeps across daemon restarts. */
export interface StoredTracker {
  paneId: string;
  format: RecordFormat;
  path: string;
  since: number;
  updatedAt: number;
  skipped: number;
  position: TailPosition;
  ledger: StoredLedger;
  label: TrackerLabel;
  current: boolean;
}

/** Whose record it is, kept for rollups after the pane is gone. */
export interface TrackerLabel {
  name: string | null;
  workspace: string;
  agent: string | null;
}

/** Bytes one read of a record may take before it yields to the rest of the daemon. */
export const MAX_BYTES_PER_READ = 16 << 20;

/** One agent record of one pane: its tail, its line reader and the usage read from it. */
export class RecordTracker {
  readonly tail: RecordTail;
  private reader: RecordLineReader;
  readonly ledger: UsageLedger;
  reading = false;
  /** The pane's record now; an earlier record of the pane stays for rollups, not for AgentInfo. */
  current = true;

  constructor(
    readonly paneId: string,
    readonly format: RecordFormat,
    readonly path: string,
    readonly since: number,
    public label: TrackerLabel,
    public updatedAt = since,
    position?: TailPosition,
    ledger?: UsageLedger,
    skipped = 0,
  ) {
    this.tail = new RecordTail(path, position);
    this.tail.skipped = skipped;
    this.reader = lineReader(format);
    this.ledger = ledger ?? new UsageLedger();
  }

  static from(stored: StoredTracker): RecordTracker {
    const tracker = new RecordTracker(stored.paneId, stored.format, stored.path, stored.since, stored.label, stored.updatedAt, stored.position, UsageLedger.from(stored.ledger), stored.skipped);
    tracker.current = stored.current;
    return tracker;
  }

  /** Reads what was appended (up to MAX_BYTES_PER_READ); answers whether any usage was added, and whether more waits. */
  async read(now: () => number): Promise<{ added: boolean; outcome: TailOutcome }> {
    let added = false;
    const skippedBefore = this.tail.skipped;
    const outcome = await this.tail.read((line) => {
      if (!this.reader.needles.some((needle) => line.includes(needle))) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line.toString('utf8'));
      } catch {
        this.tail.skipped += 1;
        return;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return;
      const entry = this.reader.read(parsed as Record<string, unknown>);
      if (entry === null) return;
      this.ledger.add(entry, now());
      added = true;
    }, MAX_BYTES_PER_READ);
    if (outcome === 'restarted') {
      // Another file at the path, or this one cut short: what was read of it no longer stands; read it again.
      this.ledger.clear();
      this.reader = lineReader(this.format);
      this.updatedAt = now();
      return { added: true, outcome: 'more' };
    }
    if (added || this.tail.skipped !== skippedBefore) this.updatedAt = now();
    return { added: added || this.tail.skipped !== skippedBefore, outcome };
  }

  /** AgentUsage as AgentInfo and `agent.usageChanged` carry it, with the budget the pane stands at 80% or more of. */
  usage(prices: PriceTable, budget?: BudgetCrossing): AgentUsage {
    const tokens: UsageTokens = { ...ZERO };
    let cost: number | null = 0;
    const models = [...this.ledger.models].map(([model, modelTokens]) => {
      addTokens(tokens, modelTokens);
      const modelCost = prices.cost(model, modelTokens);
      if (modelCost === null) cost = null;
      else if (cost !== null) cost += modelCost;
      return { model, tokens: { ...modelTokens }, cost: modelCost };
    });
    return {
      tokens,
      cost,
      currency: prices.currency,
      model: this.ledger.model,
      since: this.since,
      source: RECORD_SOURCES[this.format],
      prices: prices.version,
      models,
      skipped: this.tail.skipped,
      updatedAt: this.updatedAt,
      ...(budget ? { budget } : {}),
    };
  }

  toJSON(): StoredTracker {
    return {
      paneId: this.paneId,
      format: this.format,
      path: this.path,
      since: this.since,
      updatedAt: this.updatedAt,
      skipped: this.tail.skipped,
      position: { ...this.tail.position },
      ledger: this.ledger.toJSON(),
      label: this.label,
      current: this.current,
    };
  }
}
