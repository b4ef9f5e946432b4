// Figures from samples: percentiles and their summary, and the one line a test or bench reports them in
// (figures are reported, never asserted as timings; tests assert counts and bounds).

export function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export interface Summary {
  n: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
}

export function summary(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (v: number) => Number(v.toFixed(3));
  return { n: sorted.length, medianMs: round(quantile(sorted, 0.5)), p99Ms: round(quantile(sorted, 0.99)), maxMs: round(sorted.at(-1) ?? NaN) };
}

/** One line of figures in the test output, for the closing note and bench/RESULTS.md. */
export function report(what: string, figures: Record<string, unknown>): void {
  console.log(`# ${what}: ${JSON.stringify(figures)}`);
}
