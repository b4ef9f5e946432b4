import { isPromptKind, PROMPT_KINDS } from '../protocol/prompt.ts';
import type { ManifestErrorCode } from './errors.ts';
import { LIMITS } from './limits.ts';
import type { KeyPath } from './positions.ts';
import type { PromptReaderSpec } from './prompt-spec.ts';
import { parseRegion, RELATIVE, type RegionSpec } from './region-spec.ts';

export const PROMPT_KEYS = [
  'id', 'kind', 'region', 'start', 'when', 'choice', 'footer', 'footer_ignore', 'text_skip', 'text_keep', 'text_lines', 'select', 'free_text', 'note', 'incomplete', 'evidence',
  'allow_once', 'allow_always', 'deny',
];
/** Limits of one manifest's prompt readers, beside LIMITS. */
export const PROMPT_LIMITS = { readers: 32, patterns: 16, textLines: 8, note: 200 } as const;
const ID_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
const SELECTS = ['number', 'arrows', 'row'];

type Table = Record<string, unknown>;
type Fail = (code: ManifestErrorCode, path: KeyPath, message: string) => never;

/** Checks `[[prompts]]` tables against the schema; the first problem throws with its position. */
export function validatePromptReaders(raw: unknown, fail: Fail): PromptReaderSpec[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) fail('manifest_invalid_value', ['prompts'], 'prompts must be an array of tables ([[prompts]])');
  const list = raw as unknown[];
  if (list.length > PROMPT_LIMITS.readers) fail('manifest_limit_exceeded', ['prompts'], `${list.length} prompt readers exceed the limit of ${PROMPT_LIMITS.readers}`);
  const seen = new Set<string>();
  return list.map((entry, index) => {
    const reader = readerOf(entry, index, fail);
    if (seen.has(reader.id)) fail('manifest_duplicate_rule', ['prompts', index, 'id'], `prompt reader id "${reader.id}" is used twice; ids must be unique`);
    seen.add(reader.id);
    return reader;
  });
}

function readerOf(raw: unknown, index: number, fail: Fail): PromptReaderSpec {
  const path: KeyPath = ['prompts', index];
  if (!isTable(raw)) fail('manifest_invalid_value', path, `prompts[${index}] must be a table`);
  const table = raw as Table;
  for (const key of Object.keys(table)) {
    if (!PROMPT_KEYS.includes(key)) fail('manifest_unknown_key', [...path, key], `unknown key "${key}" in prompt reader ${index + 1}; allowed keys: ${PROMPT_KEYS.join(', ')}`);
  }
  const at = (key: string): KeyPath => [...path, key];
  const string = (key: string, required = false): string | null => {
    const value = table[key];
    if (value === undefined) {
      if (required) fail('manifest_invalid_value', at(key), `prompts[${index}].${key} is required`);
      return null;
    }
    if (typeof value !== 'string') fail('manifest_invalid_value', at(key), `prompts[${index}].${key} must be a string`);
    return value as string;
  };
  const pattern = (key: string): string | null => {
    const value = string(key);
    if (value !== null) checkLength(value, at(key), fail);
    return value;
  };
  const patterns = (key: string): string[] => {
    const value = table[key];
    if (value === undefined) return [];
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) fail('manifest_invalid_value', at(key), `prompts[${index}].${key} must be a list of strings`);
    const list = value as string[];
    if (list.length > PROMPT_LIMITS.patterns) fail('manifest_limit_exceeded', at(key), `prompts[${index}].${key}: ${list.length} entries exceed the limit of ${PROMPT_LIMITS.patterns}`);
    for (const item of list) checkLength(item, at(key), fail);
    return list;
  };
  const flag = (key: string): boolean => {
    const value = table[key];
    if (value === undefined) return false;
    if (typeof value !== 'boolean') fail('manifest_invalid_value', at(key), `prompts[${index}].${key} must be true or false`);
    return value as boolean;
  };

  const id = string('id', true)!;
  if (!ID_PATTERN.test(id)) fail('manifest_invalid_value', at('id'), `prompt reader id "${id}" must match [a-z0-9][a-z0-9_-]*`);
  const kind = string('kind', true)!;
  if (!isPromptKind(kind)) fail('manifest_invalid_value', at('kind'), `prompt reader ${id}: kind must be one of ${PROMPT_KINDS.join(', ')}, not "${kind}"`);
  let region: RegionSpec = parseRegion('whole_recent') as RegionSpec;
  const regionText = string('region');
  if (regionText !== null) {
    const parsed = parseRegion(regionText);
    if (typeof parsed === 'string') fail('manifest_invalid_value', at('region'), `prompt reader ${id}: ${parsed}`);
    region = parsed as RegionSpec;
    if (RELATIVE.has(region.kind)) fail('manifest_invalid_value', at('region'), `prompt reader ${id}: region ${region.name} is relative to a rule's match and cannot be a reader's region`);
  }
  const start = pattern('start');
  const when = patterns('when');
  if (start === null && when.length === 0) fail('manifest_invalid_value', path, `prompt reader ${id} needs start or when, so it applies only to its own dialog`);
  const textLinesValue = table.text_lines;
  let textLines = 3;
  if (textLinesValue !== undefined) {
    const number = typeof textLinesValue === 'bigint' ? Number(textLinesValue) : textLinesValue;
    if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > PROMPT_LIMITS.textLines) {
      fail('manifest_limit_exceeded', at('text_lines'), `prompt reader ${id}: text_lines must be an integer within 1..${PROMPT_LIMITS.textLines}`);
    }
    textLines = number as number;
  }
  const select = string('select') ?? 'number';
  if (!SELECTS.includes(select)) fail('manifest_invalid_value', at('select'), `prompt reader ${id}: select must be "number", "arrows" or "row", not "${select}"`);
  const note = string('note');
  if (note !== null && note.length > PROMPT_LIMITS.note) fail('manifest_limit_exceeded', at('note'), `prompt reader ${id}: a note of ${note.length} characters exceeds the limit of ${PROMPT_LIMITS.note}`);
  const incomplete = string('incomplete');
  if (incomplete !== null && incomplete.length > PROMPT_LIMITS.note) fail('manifest_limit_exceeded', at('incomplete'), `prompt reader ${id}: a reason of ${incomplete.length} characters exceeds the limit of ${PROMPT_LIMITS.note}`);
  const choice = pattern('choice');
  const footer = pattern('footer');
  const freeText = flag('free_text');
  const roles = { allowOnce: pattern('allow_once'), allowAlways: pattern('allow_always'), deny: pattern('deny') };
  if ((roles.allowOnce ?? roles.allowAlways ?? roles.deny) !== null && choice === null && footer === null) {
    fail('manifest_invalid_value', path, `prompt reader ${id} gives choice roles but reads no choices (no choice or footer)`);
  }
  if (choice === null && footer === null && !freeText && note === null) {
    fail('manifest_invalid_value', path, `prompt reader ${id} reads no choices (no choice or footer) and is no free_text question: give it a note that says why it has none`);
  }
  return {
    id,
    kind: kind as PromptReaderSpec['kind'],
    region,
    start,
    when,
    choice,
    footer,
    footerIgnore: (() => {
      const list = patterns('footer_ignore');
      return list.map((item) => item.toLowerCase());
    })(),
    textSkip: patterns('text_skip'),
    textKeep: patterns('text_keep'),
    textLines,
    select: select as PromptReaderSpec['select'],
    freeText,
    roles,
    note,
    incomplete,
    evidence: string('evidence'),
    index,
  };
}

function checkLength(pattern: string, path: KeyPath, fail: Fail): void {
  if (pattern.length > LIMITS.maxPatternLength) {
    fail('manifest_limit_exceeded', path, `a pattern of ${pattern.length} characters exceeds the limit of ${LIMITS.maxPatternLength}`);
  }
}

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
