import { Emitter } from '../../base/emitter.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import type { AgentUsage, AgentUsageField, BudgetCrossing, UsageGrouping, UsageRow } from '../../protocol/usage.ts';
import type { Budget } from '../config/budgets-config.ts';
import type { Logger } from '../logger.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import { readPrivateFile, setAsidePrivateFile, writePrivateFile } from '../private-file.ts';
import { BudgetWatch, type Crossed } from './budget-watch.ts';
import type { PriceTable } from './price-table.ts';
import { RECORD_FORMATS, type RecordFormat } from './record-formats.ts';
import { RecordTracker, type StoredTracker, type TrackerLabel } from './record-tracker.ts';
import { addTokens, tokenSum, ZERO } from './usage-ledger.ts';

const USAGE_FILE_VERSION = 1;
/** How often each record is looked at for appended lines. */
export const POLL_MS = 1000;
/** The state file is written at most this often while usage changes. */
const SAVE_MS = 5000;
/** Records kept once their pane is gone, for rollups: the oldest beyond this go. */
const MAX_RETIRED = 500;

interface StoredUsage {
  version: number;
  trackers: StoredTracker[];
  crossed: string[];
}

export interface UsageServiceOptions {
  registry: PaneRegistry;
  log: Logger;
  prices: PriceTable;
  budgets: readonly Budget[];
  /** Where the records read, their positions and the crossings told are kept (null: nowhere, in tests). */
  path: string | null;
  /** The agent identified in a pane, for labels. */
  agentOf: (pane: PaneRecord) => string | null;
  now?: () => number;
}

/**
 * Usage read from each agent's own record (docs/usage.md): a pane's record is named by its agent's hooks
 * (`pane.reportAgent` `record`), then looked at every POLL_MS for appended lines, read in bounded chunks
 * with every read awaited. Tells each record's change (`onUsage`) and each budget crossing (`onCrossed`),
 * and holds what it read in a state file, so that a restarted daemon reads on where this one stopped.
 */
export class UsageService implements Disposable {
  private readonly trackers: RecordTracker[] = [];
  /** A pane's figures changed: its listener reads them (`usageOf`) when it needs them, not at each read. */
  private readonly usage: Emitter<{ paneId: string }>;
  private readonly crossed: Emitter<Crossed>;
  private readonly holdsChanged: Emitter<string>;
  private readonly subscriptions = new DisposableStore();
  private readonly watch: BudgetWatch;
  private readonly poller: NodeJS.Timeout;
  private saver: NodeJS.Timeout | null = null;
  private budgets: readonly Budget[];
  private readonly now: () => number;
  private disposed = false;

  constructor(private readonly options: UsageServiceOptions) {
    const onError = (error: unknown) => options.log.error({ err: error }, 'usage listener failed');
    this.usage = new Emitter(onError);
    this.crossed = new Emitter(onError);
    this.holdsChanged = new Emitter(onError);
    this.now = options.now ?? Date.now;
    this.budgets = options.budgets;
    this.watch = new BudgetWatch(this.load());
    this.subscriptions.add(options.registry.onRemoved((info) => this.retire(info.id)));
    this.poller = setInterval(() => this.pollAll(), POLL_MS);
    this.poller.unref();
    // Budgets judged as soon as the daemon starts: a period may have turned while none ran.
    setImmediate(() => this.judge());
  }

  onUsage(listener: (change: { paneId: string }) => void): Disposable {
    return this.usage.event(listener);
  }

  onCrossed(listener: (crossed: Crossed) => void): Disposable {
    return this.crossed.event(listener);
  }

  /** A pane's hold by a budget began or ended. */
  onHoldChanged(listener: (paneId: string) => void): Disposable {
    return this.holdsChanged.event(listener);
  }

  /** The budget at or over 100% that holds the pane, if any. */
  held(paneId: string): BudgetCrossing | null {
    return this.watch.held.get(paneId) ?? null;
  }

  setBudgets(budgets: readonly Budget[]): void {
    this.budgets = budgets;
    this.judge();
  }

  /**
   * The agent's hooks (or its live process, held-record-watch.ts) named its record: read it from now on
   * (from its start: the session's usage so far counts). The same record named again changes nothing;
   * another one becomes the pane's record, and the one it replaces is read to its end once more. A record
   * the pane had before (Copilot CLI's tabs, taken in turn) is read on from where it was left, never again.
   */
  follow(pane: PaneRecord, format: string, path: string): void {
    if (this.disposed || !(RECORD_FORMATS as readonly string[]).includes(format) || !path.startsWith('/')) return;
    const current = this.currentOf(pane.id);
    if (current?.path === path && current.format === format) return;
    if (current) {
      current.current = false;
      // Its last lines: the poll lets its file go once it has read them.
      void this.poll(current);
    }
    const earlier = this.trackers.find((tracker) => tracker.paneId === pane.id && tracker.path === path && tracker.format === format);
    if (earlier) {
      earlier.current = true;
      earlier.label = this.labelOf(pane);
      this.options.log.debug({ pane: pane.id, format, path }, 'reading usage from an earlier agent record again');
      // Its figures are the pane's again, appended lines or none.
      void this.poll(earlier).then(() => {
        if (!this.disposed && earlier.current) this.usage.fire({ paneId: pane.id });
      });
      return;
    }
    const tracker = new RecordTracker(pane.id, format as RecordFormat, path, this.now(), this.labelOf(pane));
    this.trackers.push(tracker);
    this.options.log.info({ pane: pane.id, format, path }, 'reading usage from the agent record');
    void this.poll(tracker);
  }

  /** AgentInfo's `usage`: the current record's figures, or `unknown` while no record is known. */
  usageOf(paneId: string): AgentUsageField {
    const tracker = this.currentOf(paneId);
    return tracker ? this.figures(tracker) : 'unknown';
  }

  /** Sums of every record, current and retired, spent at or after `since`, grouped. */
  report(since: number, by: UsageGrouping): { rows: UsageRow[]; unknown: number } {
    const rows = new Map<string, UsageRow>();
    for (const tracker of this.trackers) {
      const pane = this.options.registry.get(tracker.paneId);
      if (pane) tracker.label = this.labelOf(pane);
      for (const [model, tokens] of tracker.ledger.since(since)) {
        if (tokenSum(tokens) === 0) continue;
        const [key, label] =
          by === 'agent' ? [tracker.paneId, tracker.label.name ?? tracker.paneId] : by === 'workspace' ? [tracker.label.workspace, tracker.label.workspace] : by === 'model' ? [model, model] : ['local', 'local'];
        const row = rows.get(key) ?? { key, label, tokens: { ...ZERO }, cost: null, unpriced: 0 };
        addTokens(row.tokens, tokens);
        const cost = this.options.prices.cost(model, tokens);
        if (cost === null) row.unpriced += tokenSum(tokens);
        else row.cost = (row.cost ?? 0) + cost;
        rows.set(key, row);
      }
    }
    const known = new Set(this.trackers.filter((tracker) => tracker.current).map((tracker) => tracker.paneId));
    const unknown = this.options.registry.list().filter((pane) => pane.lifecycle === 'running' && this.options.agentOf(pane) !== null && !known.has(pane.id)).length;
    return { rows: [...rows.values()].sort((a, b) => tokenSum(b.tokens) - tokenSum(a.tokens)), unknown };
  }

  get prices(): PriceTable {
    return this.options.prices;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearInterval(this.poller);
    this.subscriptions.dispose();
    for (const tracker of this.trackers) tracker.tail.close();
    this.save();
    this.usage.dispose();
    this.crossed.dispose();
    this.holdsChanged.dispose();
  }

  private figures(tracker: RecordTracker): AgentUsage {
    return tracker.usage(this.options.prices, this.watch.standing.get(tracker.paneId));
  }

  private currentOf(paneId: string): RecordTracker | undefined {
    return this.trackers.find((tracker) => tracker.paneId === paneId && tracker.current);
  }

  private labelOf(pane: PaneRecord): TrackerLabel {
    return { name: pane.name, workspace: pane.identity.workspace, agent: this.options.agentOf(pane) };
  }

  private pollAll(): void {
    for (const tracker of this.trackers) if (tracker.current) void this.poll(tracker);
    // A period may turn with nothing read: a hold of yesterday ends at midnight.
    this.judge();
  }

  /** Reads one record until it has nothing more, a bounded chunk at a time; never two reads of one record at once. */
  private async poll(tracker: RecordTracker): Promise<void> {
    if (tracker.reading || this.disposed) return;
    tracker.reading = true;
    let changed = false;
    try {
      for (;;) {
        const { added, outcome } = await tracker.read(this.now);
        changed ||= added;
        if (outcome !== 'more' || this.disposed) break;
        // Another record's turn, and the sockets', between two chunks of a long one.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      this.options.log.warn({ pane: tracker.paneId, path: tracker.path, err: error }, 'cannot read the agent record');
    } finally {
      tracker.reading = false;
    }
    if (!tracker.current && !this.disposed) {
      // A record that is no longer its pane's is read no more until it is again, nor by the next daemon
      // (which reads only current records): where it was left is written now, not within SAVE_MS.
      tracker.tail.close();
      this.save();
    }
    if (!changed || this.disposed) return;
    this.scheduleSave();
    // Judged first: the figures told carry the budget they crossed, if any.
    const told = this.judge();
    if (tracker.current && !told.has(tracker.paneId)) this.usage.fire({ paneId: tracker.paneId });
  }

  /** Judges every budget; answers the panes whose figures it told because the budget they stand at changed. */
  private judge(): Set<string> {
    const toldUsage = new Set<string>();
    // No budget, and none standing to clear: nothing to judge (most daemons, at every read).
    if (this.disposed || (this.budgets.length === 0 && this.watch.held.size === 0 && this.watch.standing.size === 0)) return toldUsage;
    const before = this.watch.held;
    const standingBefore = this.watch.standing;
    const told = this.watch.evaluate(this.budgets, this.trackers, this.options.prices, this.now());
    if (told.length > 0) this.save();
    const after = this.watch.held;
    for (const paneId of new Set([...standingBefore.keys(), ...this.watch.standing.keys()])) {
      if (sameCrossing(standingBefore.get(paneId), this.watch.standing.get(paneId))) continue;
      const tracker = this.currentOf(paneId);
      if (!tracker) continue;
      toldUsage.add(paneId);
      this.usage.fire({ paneId });
    }
    for (const crossed of told) this.crossed.fire(crossed);
    for (const paneId of new Set([...before.keys(), ...after.keys()])) if (before.has(paneId) !== after.has(paneId)) this.holdsChanged.fire(paneId);
    return toldUsage;
  }

  private retire(paneId: string): void {
    for (const tracker of this.trackers) {
      if (tracker.paneId !== paneId) continue;
      tracker.current = false;
      tracker.tail.close();
    }
    const retired = this.trackers.filter((tracker) => !tracker.current);
    for (const old of retired.slice(0, Math.max(0, retired.length - MAX_RETIRED))) this.trackers.splice(this.trackers.indexOf(old), 1);
    this.scheduleSave();
  }

  private scheduleSave(): void {
    if (this.saver !== null || this.disposed) return;
    this.saver = setTimeout(() => {
      this.saver = null;
      this.save();
    }, SAVE_MS);
    this.saver.unref();
  }

  private save(): void {
    if (this.saver !== null) clearTimeout(this.saver);
    this.saver = null;
    if (this.options.path === null) return;
    const now = this.now();
    for (const tracker of this.trackers) tracker.ledger.prune(now);
    try {
      writePrivateFile(this.options.path, { version: USAGE_FILE_VERSION, trackers: this.trackers.map((tracker) => tracker.toJSON()), crossed: this.watch.crossedKeys } satisfies StoredUsage);
    } catch (error) {
      this.options.log.error({ file: this.options.path, err: error }, 'cannot write the usage file');
    }
  }

  /** Takes back the records and crossings the last daemon kept; answers the crossings. */
  private load(): string[] {
    const path = this.options.path;
    if (path === null) return [];
    const read = readPrivateFile(path);
    if (read.status === 'absent') return [];
    const stored = read.status === 'read' ? (read.value as Partial<StoredUsage> | null) : null;
    if (stored === null || stored.version !== USAGE_FILE_VERSION || !Array.isArray(stored.trackers) || !Array.isArray(stored.crossed)) {
      try {
        const movedTo = setAsidePrivateFile(path);
        this.options.log.warn({ file: path, movedTo }, 'usage file unusable: moved aside, reading records afresh');
      } catch (error) {
        this.options.log.error({ file: path, err: error }, 'usage file unusable and cannot be moved aside');
      }
      return [];
    }
    for (const entry of stored.trackers) {
      try {
        if (!(RECORD_FORMATS as readonly string[]).includes(entry.format) || typeof entry.path !== 'string') continue;
        // A pane the next daemon does not take back is retired by its removal, as any other.
        this.trackers.push(RecordTracker.from(entry));
      } catch (error) {
        this.options.log.warn({ file: path, err: error }, 'a usage record entry is unusable; left out');
      }
    }
    return stored.crossed.filter((key): key is string => typeof key === 'string');
  }
}

/** The same standing crossing: its budget, period and threshold (its `spent` grows without changing what it says). */
function sameCrossing(a: BudgetCrossing | undefined, b: BudgetCrossing | undefined): boolean {
  return a?.budget === b?.budget && a?.percent === b?.percent && a?.periodStart === b?.periodStart;
}
