import { parse, TomlError } from 'smol-toml';
import { findKeyPosition, type KeyPath } from '../detect/positions.ts';
import { isPlainObject } from '../protocol/plain-object.ts';
import { PROMPT_KINDS, type PromptKind } from '../protocol/prompt.ts';
import { compileAnchored, type AnchoredRegex } from './anchored-regex.ts';
import { PolicyError } from './policy-error.ts';
import { DEFAULT_LOOP_LIMIT, MAX_ANSWER_DELAY_MS, MAX_LOOP_LIMIT, MAX_RULES, POLICY_ACTIONS, POLICY_MODES, type PolicyAction, type PolicyFile, type PolicyRule } from './policy-spec.ts';

/** A policy file larger than this is not a policy file. */
export const MAX_POLICY_BYTES = 256 * 1024;

/**
 * Which file of a policy this is: the main `policy.toml` holds the settings; a file `[policy] files`
 * names adds rules only; a project's own file may only narrow (deny or ask, never allow).
 */
export type PolicyFileRole = 'main' | 'extra' | 'project';

const TOP_KEYS = ['mode', 'loop_limit', 'answer_delay_ms', 'rule'] as const;
const RULE_KEYS = ['name', 'agent', 'host', 'workspace', 'pane', 'kind', 'tool', 'command', 'path', 'cwd', 'compound', 'action', 'choice', 'message'] as const;
const MAX_NAMES = 64;
const MAX_TEXT = 500;

/** TOML text to one file's rules, numbered from `firstNumber`; a PolicyError names file and line of anything wrong. */
export function parsePolicy(text: string, file: string, role: PolicyFileRole, firstNumber = 1): PolicyFile {
  if (Buffer.byteLength(text) > MAX_POLICY_BYTES) throw new PolicyError(file, null, `the file is over ${MAX_POLICY_BYTES} bytes`);
  let document: Record<string, unknown>;
  try {
    document = parse(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) throw new PolicyError(file, error.line, `not valid TOML: ${error.message.split('\n')[0]}`);
    throw error;
  }
  const lineOf = (path: KeyPath) => findKeyPosition(file, text, path).line;
  const fail = (path: KeyPath, problem: string): never => {
    throw new PolicyError(file, lineOf(path), problem);
  };
  for (const key of Object.keys(document)) {
    if (!(TOP_KEYS as readonly string[]).includes(key)) fail([key], `unknown key "${key}" (known: ${TOP_KEYS.join(', ')}; a rule is a [[rule]] table)`);
    if (key !== 'rule' && role !== 'main') fail([key], `"${key}" is a setting of the main policy.toml; a file it includes holds rules only`);
  }
  const mode = document['mode'] === undefined ? null : oneOf(document['mode'], POLICY_MODES, () => fail(['mode'], `"mode" must be one of ${POLICY_MODES.map((m) => `"${m}"`).join(', ')}`));
  let loopLimit: number | null = null;
  if (document['loop_limit'] !== undefined) {
    const value = document['loop_limit'];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_LOOP_LIMIT) fail(['loop_limit'], `"loop_limit" must be an integer from 1 to ${MAX_LOOP_LIMIT} (automatic answers per pane in a minute; default ${DEFAULT_LOOP_LIMIT})`);
    loopLimit = value as number;
  }
  let answerDelayMs: number | null = null;
  if (document['answer_delay_ms'] !== undefined) {
    const value = document['answer_delay_ms'];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_ANSWER_DELAY_MS) fail(['answer_delay_ms'], `"answer_delay_ms" must be an integer from 0 to ${MAX_ANSWER_DELAY_MS}`);
    answerDelayMs = value as number;
  }
  const tables = document['rule'] ?? [];
  if (!Array.isArray(tables) || !tables.every(isPlainObject)) fail(['rule'], '"rule" must be an array of tables: write each rule as [[rule]]');
  const list = tables as Record<string, unknown>[];
  if (list.length > MAX_RULES) fail(['rule'], `a policy file holds at most ${MAX_RULES} rules`);
  const rules = list.map((table, index) => parseRule(table, index, firstNumber + index, file, role, lineOf, fail));
  return { file, mode, loopLimit, answerDelayMs, rules };
}

function parseRule(
  table: Record<string, unknown>,
  index: number,
  number: number,
  file: string,
  role: PolicyFileRole,
  lineOf: (path: KeyPath) => number,
  fail: (path: KeyPath, problem: string) => never,
): PolicyRule {
  const at = (key: string): KeyPath => ['rule', index, key];
  const where = `rule ${index + 1} of the file`;
  for (const key of Object.keys(table)) {
    if (!(RULE_KEYS as readonly string[]).includes(key)) fail(at(key), `unknown key "${key}" in ${where} (known: ${RULE_KEYS.join(', ')})`);
  }
  if (table['action'] === undefined) fail(['rule', index], `${where} has no "action" (one of ${POLICY_ACTIONS.join(', ')})`);
  const action = oneOf(table['action'], POLICY_ACTIONS, () => fail(at('action'), `"action" must be one of ${POLICY_ACTIONS.map((a) => `"${a}"`).join(', ')}`)) as PolicyAction;
  if (role === 'project' && action === 'allow') fail(at('action'), 'a project\'s policy only narrows: its rules may deny or ask, never allow');
  const names = (key: string): string[] | null => {
    const value = table[key];
    if (value === undefined) return null;
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list) || list.length === 0 || list.length > MAX_NAMES || !list.every((item) => typeof item === 'string' && item !== '' && item.length <= MAX_TEXT)) {
      fail(at(key), `"${key}" must be a name or an array of 1 to ${MAX_NAMES} names`);
    }
    return list as string[];
  };
  const regex = (key: string): AnchoredRegex | null => {
    const value = table[key];
    if (value === undefined) return null;
    if (typeof value !== 'string' || value === '') fail(at(key), `"${key}" must be a regex (RE2, matched against the whole ${key})`);
    const compiled = compileAnchored(value as string);
    if ('error' in compiled) fail(at(key), `"${key}" ${compiled.error}`);
    return compiled as AnchoredRegex;
  };
  const text = (key: string): string | null => {
    const value = table[key];
    if (value === undefined) return null;
    if (typeof value !== 'string' || value === '' || value.length > MAX_TEXT || /[\u0000-\u001f\u007f]/.test(value)) fail(at(key), `"${key}" must be a line of 1 to ${MAX_TEXT} characters`);
    return value as string;
  };
  const kinds = names('kind');
  for (const kind of kinds ?? []) if (!(PROMPT_KINDS as readonly string[]).includes(kind)) fail(at('kind'), `"kind" names "${kind}", not a prompt kind (${PROMPT_KINDS.join(', ')})`);
  const compound = table['compound'] ?? false;
  if (typeof compound !== 'boolean') fail(at('compound'), '"compound" must be true or false');
  const choice = text('choice');
  if (choice !== null && action === 'ask') fail(at('choice'), '"choice" is for allow and deny; an ask types nothing');
  const message = text('message');
  if (message !== null && action !== 'deny') fail(at('message'), '"message" is for deny: what the agent is told');
  return {
    number,
    name: text('name'),
    file,
    line: lineOf(['rule', index]),
    agent: names('agent'),
    host: names('host'),
    workspace: names('workspace'),
    pane: names('pane'),
    kind: kinds as PromptKind[] | null,
    tool: names('tool')?.map((tool) => tool.toLowerCase()) ?? null,
    command: regex('command'),
    path: regex('path'),
    cwd: regex('cwd'),
    compound: compound as boolean,
    action,
    choice,
    message,
  };
}

function oneOf<T extends string>(value: unknown, values: readonly T[], fail: () => never): T {
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) fail();
  return value as T;
}

