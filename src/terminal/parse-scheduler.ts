/** What the scheduler runs: one screen's queued output, parsed one slice at a time. */
export interface ParseTask {
  /** Parses one slice; says whether more is ready to parse now. */
  parseSlice(): boolean;
}

export interface ParseSchedulerOptions {
  /** Parse time per turn of the event loop, at most (one slice may overrun it). */
  budgetMs?: number;
  now?: () => number;
  /** Runs a turn later (setImmediate: after the socket reads and timers already due). */
  defer?: (turn: () => void) => void;
}

/**
 * How long one turn of the event loop may spend parsing every screen's output before it yields. The
 * emulator's own write buffer parses one pane for up to 12 ms per timer and runs every busy pane's
 * timer in one phase: a call waited behind each busy pane's 12 ms. Now a call waits at most this.
 */
export const PARSE_BUDGET_MS = 2;

/**
 * One scheduler for every screen of the process. Screens with unparsed output wait in one queue; each
 * turn parses one slice of each in turn (round robin, so a prompt just printed waits for one slice of
 * each flooding pane, not for their backlog) until the budget is spent, then yields with setImmediate,
 * so that socket reads, replies and timers run between turns.
 */
export class ParseScheduler {
  /** Turns run and slices parsed so far; for tests and diagnostics. */
  turns = 0;
  slices = 0;
  private readonly queue: ParseTask[] = [];
  private head = 0;
  private readonly queued = new Set<ParseTask>();
  private scheduled = false;
  private readonly budgetMs: number;
  private readonly now: () => number;
  private readonly defer: (turn: () => void) => void;

  constructor(options: ParseSchedulerOptions = {}) {
    this.budgetMs = options.budgetMs ?? PARSE_BUDGET_MS;
    this.now = options.now ?? (() => performance.now());
    this.defer = options.defer ?? ((turn) => void setImmediate(turn));
  }

  /** The task has output to parse: it is parsed in a coming turn, after those already waiting. */
  ready(task: ParseTask): void {
    if (this.queued.has(task)) return;
    this.queued.add(task);
    this.queue.push(task);
    this.schedule();
  }

  /** How many tasks wait for a turn. */
  get waiting(): number {
    return this.queued.size;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.defer(() => this.run());
  }

  private run(): void {
    // `scheduled` stays set while the turn runs: what becomes ready meanwhile joins this turn's queue.
    this.turns += 1;
    const start = this.now();
    try {
      while (this.head < this.queue.length) {
        const task = this.queue[this.head++]!;
        this.queued.delete(task);
        this.slices += 1;
        // A task that is still ready goes to the back of the queue: one slice each, in turn.
        if (task.parseSlice()) this.ready(task);
        if (this.now() - start >= this.budgetMs) break;
      }
    } finally {
      this.queue.splice(0, this.head);
      this.head = 0;
      this.scheduled = false;
      if (this.queue.length > 0) this.schedule();
    }
  }
}

/** The scheduler every screen of the process shares. */
export const parseScheduler = new ParseScheduler();
