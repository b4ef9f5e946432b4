import { CorralError } from './errors.ts';

/** Checks an unknown value and returns it typed, or throws `invalid_params` naming the field. */
export type Validator<T> = (value: unknown, field: string) => T;
export type Infer<V> = V extends Validator<infer T> ? T : never;

type Optional<T> = Validator<T | undefined> & { readonly optional: true };
type Shape = Record<string, Validator<unknown>>;
type Flatten<T> = { [K in keyof T]: T[K] } & {};
type ObjectOf<S extends Shape> = Flatten<
  { [K in keyof S as S[K] extends Optional<unknown> ? never : K]: Infer<S[K]> } & {
    [K in keyof S as S[K] extends Optional<unknown> ? K : never]?: Exclude<Infer<S[K]>, undefined>;
  }
>;

function refuse(field: string, problem: string): never {
  const subject = field === '' ? 'params' : `"${field}"`;
  throw new CorralError('invalid_params', `${subject} ${problem}`, { field });
}

function fail(field: string, expected: string): never {
  refuse(field, `must be ${expected}`);
}

function join(field: string, key: string | number): string {
  if (typeof key === 'number') return `${field}[${key}]`;
  return field === '' ? key : `${field}.${key}`;
}

export function str(limits: { min?: number; max?: number; pattern?: RegExp; hint?: string } = {}): Validator<string> {
  const { min = 0, max = 65536, pattern, hint } = limits;
  return (value, field) => {
    if (typeof value !== 'string') fail(field, 'a string');
    if (value.length < min) fail(field, min === 1 ? 'a non-empty string' : `at least ${min} characters`);
    if (value.length > max) fail(field, `at most ${max} characters`);
    if (pattern && !pattern.test(value)) fail(field, hint ?? `a string matching ${pattern}`);
    return value;
  };
}

export function int(limits: { min?: number; max?: number } = {}): Validator<number> {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = limits;
  return (value, field) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      fail(field, `an integer from ${min} to ${max}`);
    }
    return value;
  };
}

export function bool(): Validator<boolean> {
  return (value, field) => (typeof value === 'boolean' ? value : fail(field, 'true or false'));
}

export function oneOf<const T extends readonly string[]>(values: T): Validator<T[number]> {
  return (value, field) => {
    if (typeof value !== 'string' || !values.includes(value)) fail(field, `one of ${values.join(', ')}`);
    return value;
  };
}

export function arrayOf<T>(item: Validator<T>, limits: { max?: number } = {}): Validator<T[]> {
  const { max = 4096 } = limits;
  return (value, field) => {
    if (!Array.isArray(value)) fail(field, 'an array');
    if (value.length > max) fail(field, `an array of at most ${max} items`);
    return value.map((element, i) => item(element, join(field, i)));
  };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function recordOf<T>(
  item: Validator<T>,
  limits: { max?: number; key?: RegExp } = {},
): Validator<Record<string, T>> {
  const { max = 4096, key } = limits;
  return (value, field) => {
    if (!isPlainObject(value)) fail(field, 'an object');
    const entries = Object.entries(value);
    if (entries.length > max) fail(field, `an object of at most ${max} entries`);
    for (const [k] of entries) if (key && !key.test(k)) refuse(join(field, k), `is not a valid key (${key})`);
    return Object.fromEntries(entries.map(([k, v]) => [k, item(v, join(field, k))]));
  };
}

export function optional<T>(inner: Validator<T>): Optional<T> {
  const check: Validator<T | undefined> = (value, field) => (value === undefined ? undefined : inner(value, field));
  return Object.assign(check, { optional: true as const });
}

/** A strict object: unknown fields are refused so that a misspelt parameter never passes silently. */
export function object<S extends Shape>(shape: S): Validator<ObjectOf<S>> {
  return (value, field) => {
    if (!isPlainObject(value)) fail(field, 'an object');
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(shape, key)) refuse(join(field, key), 'is not a known field');
    }
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(shape)) {
      if (value[key] === undefined && !('optional' in check)) refuse(join(field, key), 'is required');
      const checked = check(value[key], join(field, key));
      if (checked !== undefined) out[key] = checked;
    }
    return out as ObjectOf<S>;
  };
}

/** Method params: an object, where absent params count as `{}`. */
export function params<S extends Shape>(shape: S): Validator<ObjectOf<S>> {
  const check = object(shape);
  return (value, field) => check(value === undefined ? {} : value, field);
}
