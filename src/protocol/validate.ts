import { CorralError } from './errors.ts';

/** A JSON Schema (draft 7 subset) describing what a validator accepts; rpc.discover publishes it. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * Checks an unknown value and returns it typed, or throws `invalid_params` naming the field.
 * `schema` says the same in JSON Schema; every combinator here sets it, a hand-written validator
 * adds it with `described`.
 */
export type Validator<T> = ((value: unknown, field: string) => T) & { readonly schema?: JsonSchema };
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

/** Attaches the JSON Schema of what a validator accepts. */
export function described<T>(check: (value: unknown, field: string) => T, schema: JsonSchema): Validator<T> {
  return Object.assign(check, { schema });
}

function join(field: string, key: string | number): string {
  if (typeof key === 'number') return `${field}[${key}]`;
  return field === '' ? key : `${field}.${key}`;
}

export function str(limits: { min?: number; max?: number; pattern?: RegExp; hint?: string } = {}): Validator<string> {
  const { min = 0, max = 65536, pattern, hint } = limits;
  const schema: JsonSchema = { type: 'string', ...(min > 0 ? { minLength: min } : {}), maxLength: max };
  if (pattern) schema.pattern = pattern.source;
  return described((value, field) => {
    if (typeof value !== 'string') fail(field, 'a string');
    if (value.length < min) fail(field, min === 1 ? 'a non-empty string' : `at least ${min} characters`);
    if (value.length > max) fail(field, `at most ${max} characters`);
    if (pattern && !pattern.test(value)) fail(field, hint ?? `a string matching ${pattern}`);
    return value;
  }, schema);
}

export function int(limits: { min?: number; max?: number } = {}): Validator<number> {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = limits;
  return described((value, field) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      fail(field, `an integer from ${min} to ${max}`);
    }
    return value;
  }, { type: 'integer', minimum: min, maximum: max });
}

export function bool(): Validator<boolean> {
  return described((value, field) => (typeof value === 'boolean' ? value : fail(field, 'true or false')), { type: 'boolean' });
}

export function oneOf<const T extends readonly string[]>(values: T): Validator<T[number]> {
  return described((value, field) => {
    if (typeof value !== 'string' || !values.includes(value)) fail(field, `one of ${values.join(', ')}`);
    return value as T[number];
  }, { type: 'string', enum: [...values] });
}

export function arrayOf<T>(item: Validator<T>, limits: { min?: number; max?: number; hint?: string } = {}): Validator<T[]> {
  const { min = 0, max = 4096, hint } = limits;
  return described((value, field) => {
    if (!Array.isArray(value)) fail(field, 'an array');
    if (value.length < min) refuse(field, hint ?? `must be an array of at least ${min} item${min === 1 ? '' : 's'}`);
    if (value.length > max) fail(field, `an array of at most ${max} items`);
    return value.map((element, i) => item(element, join(field, i)));
  }, { type: 'array', items: item.schema ?? {}, ...(min > 0 ? { minItems: min } : {}), maxItems: max });
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function recordOf<T>(
  item: Validator<T>,
  limits: { max?: number; key?: RegExp } = {},
): Validator<Record<string, T>> {
  const { max = 4096, key } = limits;
  const schema: JsonSchema = { type: 'object', additionalProperties: item.schema ?? {}, maxProperties: max };
  if (key) schema.propertyNames = { pattern: key.source };
  return described((value, field) => {
    if (!isPlainObject(value)) fail(field, 'an object');
    const entries = Object.entries(value);
    if (entries.length > max) fail(field, `an object of at most ${max} entries`);
    for (const [k] of entries) if (key && !key.test(k)) refuse(join(field, k), `is not a valid key (${key})`);
    return Object.fromEntries(entries.map(([k, v]) => [k, item(v, join(field, k))]));
  }, schema);
}

export function optional<T>(inner: Validator<T>): Optional<T> {
  const check = (value: unknown, field: string) => (value === undefined ? undefined : inner(value, field));
  return Object.assign(check, { optional: true as const, schema: inner.schema });
}

/** A strict object: unknown fields are refused so that a misspelt parameter never passes silently. */
export function object<S extends Shape>(shape: S): Validator<ObjectOf<S>> {
  return described((value, field) => {
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
  }, objectSchema(shape));
}

function objectSchema(shape: Shape): JsonSchema {
  const properties = Object.fromEntries(Object.entries(shape).map(([key, check]) => [key, check.schema ?? {}]));
  const required = Object.entries(shape).filter(([, check]) => !('optional' in check)).map(([key]) => key);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** Method params: an object, where absent params count as `{}`. */
export function params<S extends Shape>(shape: S): Validator<ObjectOf<S>> {
  const check = object(shape);
  return described((value, field) => check(value === undefined ? {} : value, field), check.schema ?? {});
}
