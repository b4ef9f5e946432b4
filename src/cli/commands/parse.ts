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
