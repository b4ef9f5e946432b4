import { parse, TomlError } from 'smol-toml';
import { readRegularFileBytes, RegularFileError } from '../../manifest-store/regular-file.ts';
import { fleetProblemLine, readFleetConfig } from '../../protocol/fleet-config.ts';
import { isPlainObject } from '../../protocol/plain-object.ts';
import { readBudgets } from './budgets-config.ts';
import { ConfigError } from './config-error.ts';
import { CONFIG_KEYS, DEFAULT_CONFIG, NOTIFY_PLACEHOLDERS, type CorralConfig, type KeySpec } from './config-schema.ts';

/** A config file larger than this is not a config file. */
export const MAX_CONFIG_BYTES = 64 * 1024;

/**
 * Reads the config at `path`: the embedded defaults when the file is absent (`explicit` false),
 * a ConfigError naming file, line and key for anything else that is wrong.
 */
export function loadConfig(path: string, options: { explicit?: boolean } = {}): CorralConfig {
  let text: string;
  try {
    // A regular file only, opened without blocking and read up to the cap: a FIFO cannot hold the start.
    text = readRegularFileBytes(path, MAX_CONFIG_BYTES, { followSymlink: true, what: 'config' }).bytes.toString('utf8');
  } catch (error) {
    if (!(error instanceof RegularFileError)) throw error;
    if (error.code === 'file_absent' && !options.explicit) return structuredClone(DEFAULT_CONFIG) as CorralConfig;
    if (error.code === 'file_absent') throw new ConfigError(path, null, 'cannot read the config (ENOENT)');
    throw new ConfigError(path, null, error.problem);
  }
  return parseConfig(text, path);
}

export function parseConfig(text: string, file: string): CorralConfig {
  if (Buffer.byteLength(text) > MAX_CONFIG_BYTES) throw new ConfigError(file, null, `the file is over ${MAX_CONFIG_BYTES} bytes`);
  let document: Record<string, unknown>;
  try {
    document = parse(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) throw new ConfigError(file, error.line, `not valid TOML: ${error.message.split('\n')[0]}`);
    throw error;
  }
  const config = structuredClone(DEFAULT_CONFIG) as CorralConfig;
  const lines = text.split('\n');
  // The fleet's tables are the clients' (docs/fleet.md): checked here so that a typo fails the start, then ignored.
  const fleet = readFleetConfig(document);
  if ('problem' in fleet) throw new ConfigError(file, fleetProblemLine(text, fleet.problem), fleet.problem.problem);
  for (const [table, body] of Object.entries(document)) {
    if (table === 'hosts' || table === 'fleet') continue;
    if (table === 'budgets') {
      const budgets = readBudgets(body);
      if ('problem' in budgets) throw new ConfigError(file, budgetLine(lines, budgets.index), budgets.problem);
      config.budgets = budgets;
      continue;
    }
    if (!Object.hasOwn(CONFIG_KEYS, table)) {
      throw new ConfigError(file, lineOf(lines, null, table), `unknown key "${table}" (known tables: ${[...Object.keys(CONFIG_KEYS), 'budgets', 'hosts', 'fleet'].join(', ')})`);
    }
    const keys = CONFIG_KEYS[table as keyof typeof CONFIG_KEYS];
    if (!isPlainObject(body)) throw new ConfigError(file, lineOf(lines, null, table), `"${table}" must be a table ([${table}])`);
    const target = config[table as keyof CorralConfig] as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(body)) {
      const line = lineOf(lines, table, key);
      const spec = keys[key];
      if (!spec) throw new ConfigError(file, line, `unknown key "${table}.${key}" (known: ${Object.keys(keys).map((k) => `${table}.${k}`).join(', ')})`);
      target[spec.field] = checkValue(spec, value, `${table}.${key}`, (problem) => new ConfigError(file, line, problem), target[spec.field]);
    }
  }
  const webhook = (document.notify as { webhook?: unknown } | undefined)?.webhook;
  if (webhook !== undefined && config.notify.webhook.url === null) throw new ConfigError(file, lineOf(lines, null, 'notify.webhook'), '"notify.webhook" needs a "url" (where each item is posted)');
  return config;
}

function checkValue(spec: KeySpec, value: unknown, key: string, fail: (problem: string) => ConfigError, current?: unknown): unknown {
  if (spec.kind === 'table') {
    if (!isPlainObject(value)) throw fail(`"${key}" must be a table ([${key}])`);
    const table = { ...(current as Record<string, unknown>) };
    for (const [name, item] of Object.entries(value)) {
      const inner = spec.keys[name];
      if (!inner) throw fail(`unknown key "${key}.${name}" (known: ${Object.keys(spec.keys).map((k) => `${key}.${k}`).join(', ')})`);
      table[inner.field] = checkValue(inner, item, `${key}.${name}`, fail);
    }
    return table;
  }
  if (spec.kind === 'contact') {
    if (typeof value !== 'string' || value.length > 256 || !/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(value)) throw fail(`"${key}" must be a mailto: address or an https: URL`);
    return value;
  }
  if (spec.kind === 'quiet') {
    if (typeof value !== 'string' || !(QUIET_HOURS.test(value) || (spec.allowOff && value === 'off'))) throw fail(`"${key}" must be "HH:MM-HH:MM" in local time (as "22:00-07:00")${spec.allowOff ? ' or "off"' : ''}`);
    return value;
  }
  if (spec.kind === 'url') {
    const problem = typeof value === 'string' && value.length <= 2048 ? webUrlProblem(value) : 'not a string of at most 2048 characters';
    if (problem !== null) throw fail(`"${key}" must be an https URL (http only on a loopback address): ${problem}`);
    return (value as string).replace(/\/+$/, '');
  }
  if (spec.kind === 'secret') {
    if (typeof value !== 'string' || value.length < 16 || value.length > 256) throw fail(`"${key}" must be a string of 16 to 256 characters`);
    return value;
  }
  if (spec.kind === 'states') {
    if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string' && spec.values.includes(v))) throw fail(`"${key}" must be an array of some of ${spec.values.map((v) => `"${v}"`).join(', ')}`);
    return [...new Set(value as string[])];
  }
  if (spec.kind === 'strings') {
    if (!Array.isArray(value) || value.length > spec.maxItems || !value.every((v) => typeof v === 'string' && v !== '' && v.length <= 64)) throw fail(`"${key}" must be an array of at most ${spec.maxItems} names`);
    return [...value];
  }
  if (spec.kind === 'int') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < spec.min || value > spec.max) {
      throw fail(`"${key}" must be an integer from ${spec.min} to ${spec.max}`);
    }
    return value;
  }
  if (spec.kind === 'choice') {
    if (typeof value !== 'string' || !spec.values.includes(value)) throw fail(`"${key}" must be one of ${spec.values.map((v) => `"${v}"`).join(', ')}`);
    return value;
  }
  if (spec.kind === 'bool') {
    if (typeof value !== 'boolean') throw fail(`"${key}" must be true or false`);
    return value;
  }
  if (spec.kind === 'names') {
    if (!Array.isArray(value) || value.length > spec.maxItems || !value.every((v) => typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v))) {
      throw fail(`"${key}" must be an array of at most ${spec.maxItems} environment variable names (letters, digits and _, not starting with a digit)`);
    }
    return [...value];
  }
  if (spec.kind === 'paths') {
    if (!Array.isArray(value) || value.length > spec.maxItems || !value.every((v) => typeof v === 'string' && v !== '' && !v.includes('\0'))) {
      throw fail(`"${key}" must be an array of at most ${spec.maxItems} file paths (relative to the config's folder)`);
    }
    return [...value];
  }
  if (!Array.isArray(value) || value.length === 0 || value.length > spec.maxItems || !value.every((v) => typeof v === 'string')) {
    throw fail(`"${key}" must be an array of 1 to ${spec.maxItems} strings (a program and its arguments; no shell is used)`);
  }
  if (value[0] === '') throw fail(`"${key}" must name a program first`);
  for (const item of value as string[]) {
    for (const [, name] of item.matchAll(/\{([^{}]*)\}/g)) {
      if (!(NOTIFY_PLACEHOLDERS as readonly string[]).includes(name!)) {
        throw fail(`"${key}" has an unknown placeholder {${name}} (known: ${NOTIFY_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')})`);
      }
    }
  }
  return value;
}

const QUIET_HOURS = /^([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]$/;

/** Null for an https URL, or an http one on a loopback address; else what is wrong. */
function webUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.username !== '' || url.password !== '') return 'no user or password in it';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\./.test(url.hostname))) return null;
  return `${url.protocol} on ${url.hostname}`;
}

/** The 1-based line where `key` is set in `table` (or where the table starts), for messages. */
function lineOf(lines: string[], table: string | null, key: string): number | null {
  let current: string | null = null;
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const keyLine = new RegExp(`^\\s*(?:${escaped}|"${escaped}")\\s*=`);
  const tableLine = /^\s*\[\s*([^\]]+?)\s*\]/;
  const dotted = new RegExp(`^\\s*${escaped}\\s*\\.`);
  for (let i = 0; i < lines.length; i += 1) {
    const header = tableLine.exec(lines[i]!);
    if (header) {
      current = header[1]!;
      if (table === null && (current === key || current.startsWith(`${key}.`))) return i + 1;
      continue;
    }
    if (table === null && current === null && (keyLine.test(lines[i]!) || dotted.test(lines[i]!))) return i + 1;
    if (table !== null && current === table && keyLine.test(lines[i]!)) return i + 1;
  }
  return null;
}

/** The line of the `index`th `[[budgets]]` header (the first when null). */
function budgetLine(lines: string[], index: number | null): number | null {
  let seen = -1;
  for (let i = 0; i < lines.length; i += 1) {
    if (/^\s*\[\[\s*budgets\s*\]\]/.test(lines[i]!) && (seen += 1) === (index ?? 0)) return i + 1;
  }
  return null;
}
