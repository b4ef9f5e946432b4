import { isRawState } from '../protocol/states.ts';
import { ManifestError, type ManifestErrorCode } from './errors.ts';
import { ENGINE_VERSION, LIMITS } from './limits.ts';
import type { GateSpec, IdentitySpec, IntegrationSpec, ManifestSpec, MatcherSpec, RuleSpec } from './manifest-spec.ts';
import { findKeyPosition, type KeyPath } from './positions.ts';
import { validateComposer } from './composer-spec.ts';
import { validatePromptReaders } from './prompt-schema.ts';
import { parseRegion, RELATIVE, type RegionSpec } from './region-spec.ts';
import { isDottedVersion } from './version.ts';

const RESUME_KEYS = ['args'];
/** The resume form's limits: a few short arguments, one of them naming the session. */
const RESUME_LIMITS = { args: 8, chars: 256 };
const TOP_KEYS = ['id', 'name', 'aliases', 'version', 'min_engine_version', 'fallback', 'identity', 'reports', 'resume', 'integration', 'rules', 'prompts', 'composer'];
const INTEGRATION_KEYS = ['hook', 'mechanism', 'target', 'default_path', 'events', 'since', 'full_lifecycle', 'root_owned', 'user_file', 'user_dir_env'];
const MECHANISMS = ['settings_flag', 'notify_config', 'settings_env', 'plugin_dir'];
const IDENTITY_KEYS = ['executables', 'packages', 'argv_patterns'];
const REPORTS_KEYS = ['full_lifecycle_sources'];
const MATCHER_KEYS = ['contains', 'regex', 'line_regex', 'all', 'any', 'not'];
const GATE_KEYS = ['region', ...MATCHER_KEYS];
const RULE_KEYS = [
  'id', 'state', 'priority', 'region', ...MATCHER_KEYS, 'visible_idle', 'visible_blocker', 'visible_working', 'skip_state_update', 'evidence',
  'lines', 'truncation_min_prefix', 'motion_within_ms', 'quiet_for_ms', 'motion_only', 'weak',
];
const ID_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
const DEFAULT_REGION = parseRegion('whole_recent') as RegionSpec;

type Table = Record<string, unknown>;

/** Checks a parsed TOML document against the manifest schema; the first problem throws with its position. */
export function validateManifest(doc: Table, file: string, source: string): ManifestSpec {
  const { spec, problems } = checkManifest(doc, file, source);
  if (problems[0]) throw problems[0];
  return spec;
}

const NO_IDENTITY: IdentitySpec = { executables: [], packages: [], argvPatterns: [] };

/**
 * Every problem of a parsed document against the manifest schema, each with its position, in the
 * order the checks meet them: a part that fails (a key, a table, one rule) is left out and the
 * checks go on. `spec` is whole only when there are no problems.
 */
export function checkManifest(doc: Table, file: string, source: string): { spec: ManifestSpec; problems: ManifestError[] } {
  const fail = (code: ManifestErrorCode, path: KeyPath, message: string): never => {
    throw new ManifestError(code, message, findKeyPosition(file, source, path));
  };
  const v = new Validator(fail);

  v.keys(doc, [], TOP_KEYS, 'the top level');
  const id = v.attempt('', () => {
    const id = v.string(doc, ['id'], true)!;
    if (!ID_PATTERN.test(id)) fail('manifest_invalid_value', ['id'], `id "${id}" must match [a-z0-9][a-z0-9_-]*`);
    return id;
  });
  const version = v.attempt('0', () => {
    const version = v.string(doc, ['version'], true)!;
    if (!isDottedVersion(version)) fail('manifest_invalid_value', ['version'], `version "${version}" must be dotted numeric, as in 1.4.0`);
    return version;
  });
  const minEngineVersion = v.attempt(1, () => {
    const minEngineVersion = v.integer(doc, ['min_engine_version'], 1, 1_000_000) ?? 1;
    if (minEngineVersion > ENGINE_VERSION) {
      fail('manifest_engine_too_old', ['min_engine_version'], `needs engine version ${minEngineVersion}; this engine is version ${ENGINE_VERSION}: upgrade corral`);
    }
    return minEngineVersion;
  });
  const fallback = v.attempt('unknown', () => {
    const fallback = v.string(doc, ['fallback']) ?? 'unknown';
    if (fallback !== 'unknown' && fallback !== 'idle') fail('manifest_invalid_value', ['fallback'], `fallback must be "unknown" or "idle", not "${fallback}"`);
    return fallback;
  });

  const identity = v.attempt(NO_IDENTITY, () => {
    const identityTable = v.table(doc, ['identity']) ?? {};
    v.keys(identityTable, ['identity'], IDENTITY_KEYS, '[identity]');
    const identity: IdentitySpec = {
      executables: v.attempt([], () => v.strings(identityTable, ['identity', 'executables'])),
      packages: v.attempt([], () => v.strings(identityTable, ['identity', 'packages'])),
      argvPatterns: v.attempt([], () => v.strings(identityTable, ['identity', 'argv_patterns'])),
    };
    for (const pattern of identity.argvPatterns) v.attempt(undefined, () => v.patternLength(pattern, ['identity', 'argv_patterns']));
    return identity;
  });

  const reportsTable = v.attempt({}, () => {
    const reportsTable = v.table(doc, ['reports']) ?? {};
    v.keys(reportsTable, ['reports'], REPORTS_KEYS, '[reports]');
    return reportsTable;
  });

  const resume = v.attempt(null, (): ManifestSpec['resume'] => {
    const resumeTable = v.table(doc, ['resume']);
    if (resumeTable === undefined) return null;
    v.keys(resumeTable, ['resume'], RESUME_KEYS, '[resume]');
    const args = v.strings(resumeTable, ['resume', 'args']);
    if (args.length === 0 || args.length > RESUME_LIMITS.args || args.some((arg) => arg.length > RESUME_LIMITS.chars) || !args.some((arg) => arg.includes('{session}'))) {
      fail('manifest_invalid_value', ['resume', 'args'], `resume.args must be 1..${RESUME_LIMITS.args} strings of at most ${RESUME_LIMITS.chars} characters, one containing {session}`);
    }
    return { args };
  });

  const integration = v.attempt(null, () => integrationOf(v, doc, fail));

  const rules: RuleSpec[] = [];
  v.attempt(undefined, () => {
    const rawRules = doc.rules ?? [];
    if (!Array.isArray(rawRules)) fail('manifest_invalid_value', ['rules'], 'rules must be an array of tables ([[rules]])');
    const ruleList = rawRules as unknown[];
    if (ruleList.length > LIMITS.maxRulesPerManifest) {
      fail('manifest_limit_exceeded', ['rules'], `${ruleList.length} rules exceed the limit of ${LIMITS.maxRulesPerManifest} per manifest`);
    }
    const seen = new Set<string>();
    ruleList.forEach((raw, index) =>
      v.attempt(undefined, () => {
        const rule = v.rule(raw, index);
        if (seen.has(rule.id)) fail('manifest_duplicate_rule', ['rules', index, 'id'], `rule id "${rule.id}" is used twice; rule ids must be unique`);
        seen.add(rule.id);
        rules.push(rule);
      }),
    );
  });

  const spec: ManifestSpec = {
    id,
    name: v.attempt(id, () => v.string(doc, ['name']) ?? id),
    aliases: v.attempt([], () => v.strings(doc, ['aliases'])),
    version,
    minEngineVersion,
    fallback: fallback as ManifestSpec['fallback'],
    identity,
    reports: { fullLifecycleSources: v.attempt([], () => v.strings(reportsTable, ['reports', 'full_lifecycle_sources'])) },
    resume,
    integration,
    rules,
    prompts: v.attempt([], () => validatePromptReaders(doc.prompts, fail)),
    composer: v.attempt(null, () => validateComposer(doc.composer, fail)),
  };
  return { spec, problems: v.problems };
}

function integrationOf(v: Validator, doc: Table, fail: (code: ManifestErrorCode, path: KeyPath, message: string) => never): IntegrationSpec | null {
  const table = v.table(doc, ['integration']);
  if (table === undefined) return null;
  v.keys(table, ['integration'], INTEGRATION_KEYS, '[integration]');
  const mechanism = v.string(table, ['integration', 'mechanism'], true)!;
  if (!MECHANISMS.includes(mechanism)) fail('manifest_invalid_value', ['integration', 'mechanism'], `mechanism must be one of ${MECHANISMS.join(', ')}`);
  const since = v.string(table, ['integration', 'since'], true)!;
  if (!isDottedVersion(since)) fail('manifest_invalid_value', ['integration', 'since'], `since "${since}" must be dotted numeric, as in 2.1.0`);
  return {
    hook: v.string(table, ['integration', 'hook'], true)!,
    mechanism: mechanism as IntegrationSpec['mechanism'],
    target: v.string(table, ['integration', 'target'], true)!,
    defaultPath: v.string(table, ['integration', 'default_path']) ?? null,
    events: v.strings(table, ['integration', 'events']),
    since,
    fullLifecycle: v.boolean(table, ['integration', 'full_lifecycle']),
    rootOwned: v.boolean(table, ['integration', 'root_owned']),
    userFile: v.string(table, ['integration', 'user_file']) ?? null,
    userDirEnv: v.string(table, ['integration', 'user_dir_env']) ?? null,
  };
}

class Validator {
  readonly #fail: (code: ManifestErrorCode, path: KeyPath, message: string) => never;
  /** The problems met so far, in order. */
  readonly problems: ManifestError[] = [];

  constructor(fail: (code: ManifestErrorCode, path: KeyPath, message: string) => never) {
    this.#fail = fail;
  }

  /** Runs one check; a problem it throws is kept and `fallback` stands in, so the next check still runs. */
  attempt<T>(fallback: T, check: () => T): T {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof ManifestError)) throw error;
      this.problems.push(error);
      return fallback;
    }
  }

  /** Each unknown key is a problem of its own. */
  keys(table: Table, path: KeyPath, allowed: string[], where: string): void {
    for (const key of Object.keys(table)) {
      if (!allowed.includes(key)) {
        this.attempt(undefined, () => this.#fail('manifest_unknown_key', [...path, key], `unknown key "${key}" in ${where}; allowed keys: ${allowed.join(', ')}`));
      }
    }
  }

  table(parent: Table, path: KeyPath): Table | undefined {
    const value = parent[last(path)];
    if (value === undefined) return undefined;
    if (!isTable(value)) this.#fail('manifest_invalid_value', path, `${dotted(path)} must be a table`);
    return value as Table;
  }

  string(parent: Table, path: KeyPath, required = false): string | undefined {
    const value = parent[last(path)];
    if (value === undefined) {
      if (required) this.#fail('manifest_invalid_value', path, `${dotted(path)} is required`);
      return undefined;
    }
    if (typeof value !== 'string') this.#fail('manifest_invalid_value', path, `${dotted(path)} must be a string`);
    return value as string;
  }

  strings(parent: Table, path: KeyPath): string[] {
    const value = parent[last(path)];
    if (value === undefined) return [];
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) this.#fail('manifest_invalid_value', path, `${dotted(path)} must be a list of strings`);
    return value as string[];
  }

  integer(parent: Table, path: KeyPath, min: number, max: number): number | undefined {
    const value = parent[last(path)];
    if (value === undefined) return undefined;
    const number = typeof value === 'bigint' ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
      this.#fail('manifest_invalid_value', path, `${dotted(path)} must be an integer within ${min}..${max}`);
    }
    return number as number;
  }

  boolean(parent: Table, path: KeyPath): boolean {
    const value = parent[last(path)];
    if (value === undefined) return false;
    if (typeof value !== 'boolean') this.#fail('manifest_invalid_value', path, `${dotted(path)} must be true or false`);
    return value as boolean;
  }

  patternLength(pattern: string, path: KeyPath): void {
    if (pattern.length > LIMITS.maxPatternLength) {
      this.#fail('manifest_limit_exceeded', path, `a pattern of ${pattern.length} characters exceeds the limit of ${LIMITS.maxPatternLength}`);
    }
  }

  region(parent: Table, path: KeyPath): RegionSpec | null {
    const text = this.string(parent, path);
    if (text === undefined) return null;
    const region = parseRegion(text);
    if (typeof region === 'string') this.#fail('manifest_invalid_value', path, region);
    return region as RegionSpec;
  }

  rule(raw: unknown, index: number): RuleSpec {
    const path: KeyPath = ['rules', index];
    if (!isTable(raw)) this.#fail('manifest_invalid_value', path, `rules[${index}] must be a table`);
    const table = raw as Table;
    this.keys(table, path, RULE_KEYS, `rule ${index + 1}`);
    const id = this.string(table, [...path, 'id'], true)!;
    if (!ID_PATTERN.test(id)) this.#fail('manifest_invalid_value', [...path, 'id'], `rule id "${id}" must match [a-z0-9][a-z0-9_-]*`);
    const state = this.string(table, [...path, 'state'], true)!;
    if (!isRawState(state)) this.#fail('manifest_invalid_value', [...path, 'state'], `rule ${id}: state must be idle, working, blocked or unknown, not "${state}"`);
    const counter = { matchers: 0 };
    const matchers = this.matchers(table, path, 0, counter, id);
    const lines = this.string(table, [...path, 'lines']) ?? 'rows';
    if (lines !== 'rows' && lines !== 'logical') this.#fail('manifest_invalid_value', [...path, 'lines'], `rule ${id}: lines must be "rows" or "logical", not "${lines}"`);
    const region = this.region(table, [...path, 'region']) ?? DEFAULT_REGION;
    if (RELATIVE.has(region.kind)) this.#fail('manifest_invalid_value', [...path, 'region'], `rule ${id}: region ${region.name} is relative to the rule's own line_regex match and can only be a gate's region`);
    if (matchers.lineRegex.length === 0 && usesRelative(matchers)) {
      this.#fail('manifest_invalid_value', path, `rule ${id}: a gate reads below_match or above_match, so the rule needs a line_regex of its own to anchor on`);
    }
    const window = (key: string): number | null => {
      const value = table[key];
      if (value === undefined) return null;
      const number = typeof value === 'bigint' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isInteger(number)) this.#fail('manifest_invalid_value', [...path, key], `rule ${id}: ${key} must be an integer number of milliseconds`);
      if ((number as number) < LIMITS.minTimeWindowMs || (number as number) > LIMITS.maxTimeWindowMs) {
        this.#fail('manifest_limit_exceeded', [...path, key], `rule ${id}: ${key} = ${number} is outside the limits ${LIMITS.minTimeWindowMs}..${LIMITS.maxTimeWindowMs} ms`);
      }
      return number as number;
    };
    const motionWithinMs = window('motion_within_ms');
    const quietForMs = window('quiet_for_ms');
    const motionOnly = this.boolean(table, [...path, 'motion_only']);
    const weak = this.boolean(table, [...path, 'weak']);
    if (weak && state !== 'idle') this.#fail('manifest_invalid_value', [...path, 'weak'], `rule ${id}: weak applies to idle rules only`);
    if (motionOnly && motionWithinMs === null) this.#fail('manifest_invalid_value', [...path, 'motion_only'], `rule ${id}: motion_only needs motion_within_ms`);
    const prefix = table.truncation_min_prefix;
    let truncationMinPrefix: number | null = null;
    if (prefix !== undefined) {
      const number = typeof prefix === 'bigint' ? Number(prefix) : prefix;
      if (typeof number !== 'number' || !Number.isInteger(number)) this.#fail('manifest_invalid_value', [...path, 'truncation_min_prefix'], `rule ${id}: truncation_min_prefix must be an integer`);
      if ((number as number) < LIMITS.minTruncationPrefix || (number as number) > LIMITS.maxTruncationPrefix) {
        this.#fail('manifest_limit_exceeded', [...path, 'truncation_min_prefix'], `rule ${id}: truncation_min_prefix = ${number} is outside the limits ${LIMITS.minTruncationPrefix}..${LIMITS.maxTruncationPrefix}`);
      }
      if (!usesContains(matchers)) this.#fail('manifest_invalid_value', [...path, 'truncation_min_prefix'], `rule ${id}: truncation_min_prefix applies to contains entries, and the rule has none`);
      truncationMinPrefix = number as number;
    }
    if (counter.matchers === 0) this.#fail('manifest_invalid_value', path, `rule ${id} has no matcher; give it contains, regex, line_regex, all, any or not`);
    const rule: RuleSpec = {
      ...matchers,
      id,
      state: state as RuleSpec['state'],
      priority: this.integer(table, [...path, 'priority'], 0, 10_000) ?? 0,
      region,
      visibleIdle: this.boolean(table, [...path, 'visible_idle']),
      visibleBlocker: this.boolean(table, [...path, 'visible_blocker']),
      visibleWorking: this.boolean(table, [...path, 'visible_working']),
      skipStateUpdate: this.boolean(table, [...path, 'skip_state_update']),
      evidence: this.string(table, [...path, 'evidence']) ?? null,
      lines: lines as RuleSpec['lines'],
      truncationMinPrefix,
      motionWithinMs,
      motionOnly,
      weak,
      quietForMs,
      index,
    };
    if (rule.skipStateUpdate && (rule.state !== 'unknown' || rule.visibleIdle || rule.visibleBlocker || rule.visibleWorking)) {
      this.#fail('manifest_invalid_value', [...path, 'skip_state_update'], `rule ${id}: skip_state_update needs state = "unknown" and no visible_* flag`);
    }
    return rule;
  }

  matchers(table: Table, path: KeyPath, depth: number, counter: { matchers: number }, ruleId: string): MatcherSpec {
    const patterns = (key: string): string[] => {
      const list = this.strings(table, [...path, key]);
      for (const pattern of list) this.patternLength(pattern, [...path, key]);
      counter.matchers += list.length;
      return list;
    };
    const gates = (key: 'all' | 'any' | 'not'): GateSpec[] => {
      const value = table[key];
      if (value === undefined) return [];
      if (!Array.isArray(value)) this.#fail('manifest_invalid_value', [...path, key], `rule ${ruleId}: ${key} must be a list of inline tables`);
      if (depth + 1 > LIMITS.maxGateDepth) this.#fail('manifest_limit_exceeded', [...path, key], `rule ${ruleId}: gates nest deeper than the limit of ${LIMITS.maxGateDepth}`);
      return (value as unknown[]).map((gate, i) => {
        const gatePath = [...path, key, i];
        if (!isTable(gate)) this.#fail('manifest_invalid_value', gatePath, `rule ${ruleId}: each ${key} entry must be an inline table`);
        this.keys(gate as Table, gatePath, GATE_KEYS, `a gate of rule ${ruleId}`);
        counter.matchers++;
        const before = counter.matchers;
        const inner = this.matchers(gate as Table, gatePath, depth + 1, counter, ruleId);
        if (counter.matchers === before) this.#fail('manifest_invalid_value', gatePath, `rule ${ruleId}: a gate in ${key} has no matcher`);
        return { ...inner, region: this.region(gate as Table, [...gatePath, 'region']) };
      });
    };
    const spec: MatcherSpec = {
      contains: patterns('contains'),
      regex: patterns('regex'),
      lineRegex: patterns('line_regex'),
      all: gates('all'),
      any: gates('any'),
      not: gates('not'),
    };
    if (counter.matchers > LIMITS.maxMatchersPerRule) {
      this.#fail('manifest_limit_exceeded', path, `rule ${ruleId}: ${counter.matchers} matchers exceed the limit of ${LIMITS.maxMatchersPerRule} per rule`);
    }
    return spec;
  }
}

function usesRelative(matcher: MatcherSpec): boolean {
  return [...matcher.all, ...matcher.any, ...matcher.not].some((gate) => (gate.region !== null && RELATIVE.has(gate.region.kind)) || usesRelative(gate));
}

function usesContains(matcher: MatcherSpec): boolean {
  return matcher.contains.length > 0 || [...matcher.all, ...matcher.any, ...matcher.not].some(usesContains);
}

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function last(path: KeyPath): string {
  return String(path[path.length - 1]);
}

function dotted(path: KeyPath): string {
  return path.map((segment) => (typeof segment === 'number' ? `[${segment}]` : segment)).join('.').replace(/\.\[/g, '[');
}
