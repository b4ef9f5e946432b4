import type { ManifestErrorCode } from './errors.ts';
import { LIMITS } from './limits.ts';
import type { KeyPath } from './positions.ts';
import { parseRegion, RELATIVE, type RegionSpec } from './region-spec.ts';

/**
 * A manifest's `[composer]` table: how to read the text waiting in the agent's input box, and how to
 * empty it (docs/manifests.md, "[composer]").
 */
export interface ComposerSpec {
  /** Where the input box is drawn. */
  region: RegionSpec;
  /** line_regex: the newest line of the region it matches is the box's first line; the draft is what follows the match. */
  prefix: string;
  /** line_regex: the draft ends before the first later line it matches; without it, at the region's end. */
  end: string | null;
  /** line_regex entries: a draft that matches one is the box's placeholder, so the box is empty. */
  empty: string[];
  /** The keys that empty a box holding text (key names as `pane.send` takes them). */
  clear: string[];
  evidence: string | null;
}

const COMPOSER_KEYS = ['region', 'prefix', 'end', 'empty', 'clear', 'evidence'];
/** Limits of a composer table, beside LIMITS. */
export const COMPOSER_LIMITS = { empty: 8, clear: 8, keyChars: 16 } as const;
/** A key name's shape (src/terminal/keys.ts says which names exist; the daemon refuses others at use). */
const KEY_NAME = /^[A-Za-z0-9+-]+$/;

type Table = Record<string, unknown>;
type Fail = (code: ManifestErrorCode, path: KeyPath, message: string) => never;

/** Checks the `[composer]` table; the first problem throws with its position. Absent: null. */
export function validateComposer(raw: unknown, fail: Fail): ComposerSpec | null {
  if (raw === undefined) return null;
  const path: KeyPath = ['composer'];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('manifest_invalid_value', path, 'composer must be a table ([composer])');
  const table = raw as Table;
  for (const key of Object.keys(table)) {
    if (!COMPOSER_KEYS.includes(key)) fail('manifest_unknown_key', [...path, key], `unknown key "${key}" in [composer]; allowed keys: ${COMPOSER_KEYS.join(', ')}`);
  }
  const at = (key: string): KeyPath => [...path, key];
  const string = (key: string, required = false): string | null => {
    const value = table[key];
    if (value === undefined) {
      if (required) fail('manifest_invalid_value', at(key), `composer.${key} is required`);
      return null;
    }
    if (typeof value !== 'string') fail('manifest_invalid_value', at(key), `composer.${key} must be a string`);
    return value as string;
  };
  const strings = (key: string, limit: number, required = false): string[] => {
    const value = table[key];
    if (value === undefined && !required) return [];
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) fail('manifest_invalid_value', at(key), `composer.${key} must be a list of strings`);
    const list = value as string[];
    if (list.length > limit) fail('manifest_limit_exceeded', at(key), `composer.${key}: ${list.length} entries exceed the limit of ${limit}`);
    return list;
  };
  const pattern = (key: string, value: string | null): void => {
    if (value !== null && value.length > LIMITS.maxPatternLength) {
      fail('manifest_limit_exceeded', at(key), `a pattern of ${value.length} characters exceeds the limit of ${LIMITS.maxPatternLength}`);
    }
  };

  const regionText = string('region', true)!;
  const region = parseRegion(regionText);
  if (typeof region === 'string') fail('manifest_invalid_value', at('region'), `composer: ${region}`);
  const spec = region as RegionSpec;
  if (RELATIVE.has(spec.kind) || spec.kind === 'osc_title' || spec.kind === 'osc_progress') {
    fail('manifest_invalid_value', at('region'), `composer: region ${spec.name} holds no rows of the screen`);
  }
  const prefix = string('prefix', true)!;
  pattern('prefix', prefix);
  const end = string('end');
  pattern('end', end);
  const empty = strings('empty', COMPOSER_LIMITS.empty);
  for (const item of empty) pattern('empty', item);
  const clear = strings('clear', COMPOSER_LIMITS.clear, true);
  if (clear.length === 0 || clear.some((key) => key.length > COMPOSER_LIMITS.keyChars || !KEY_NAME.test(key))) {
    fail('manifest_invalid_value', at('clear'), `composer.clear must be 1..${COMPOSER_LIMITS.clear} key names (C-u, C-c, Escape, ...) that empty the box`);
  }
  return { region: spec, prefix, end, empty, clear, evidence: string('evidence') };
}
