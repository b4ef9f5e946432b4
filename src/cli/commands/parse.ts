import { InvalidArgumentError } from 'commander';

/** Option value parsers shared by the commands; each names what it expected. */

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('expected a whole number');
  return n;
}

export function positiveInt(value: string): number {
  const n = nonNegativeInt(value);
  if (n < 1) throw new InvalidArgumentError('expected a positive whole number');
  return n;
}

/** A repeatable option: each use adds its value. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

const DURATION_UNITS_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration in ms: `500ms`, `90s`, `15m`, `2h`, or a plain number of ms (`1500`). */
export function duration(value: string): number {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(value.trim());
  const ms = match ? Number(match[1]) * DURATION_UNITS_MS[match[2] ?? 'ms']! : NaN;
  if (!Number.isSafeInteger(ms)) throw new InvalidArgumentError('expected a duration: a whole number with ms, s, m or h (15m, 90s, 500ms); a plain number is ms');
  return ms;
}

/** A duration of at least 1 ms. */
export function positiveDuration(value: string): number {
  const ms = duration(value);
  if (ms < 1) throw new InvalidArgumentError('expected a duration above zero');
  return ms;
}
