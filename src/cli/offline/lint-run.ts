import type { CompiledGate, CompiledManifest, CompiledMatcher } from '../../detect/compiled.ts';
import type { RegionSpec } from '../../detect/region-spec.ts';
import { ManifestError } from '../../detect/errors.ts';
import { LIMITS } from '../../detect/limits.ts';
import { manifestProblems } from '../../detect/parse.ts';
import { loadManifestFile, toLoadError } from '../../manifest-store/loader.ts';
import { readRegularFile } from '../../manifest-store/read-regular-file.ts';
import { matchContext, matches } from '../../detect/match.ts';
import { RegionReader } from '../../detect/regions.ts';
import type { DetectInput } from '../../detect/types.ts';
import { lintPromptReaders } from './lint-prompts.ts';

export interface LintFinding {
  level: 'error' | 'warning';
  code: string;
  file: string;
  rule: string | null;
  /** What is wrong; the file and position are the fields around it, never in it. */
  message: string;
  /** Where in the file, when the check knows (1-based). */
  line?: number;
  column?: number;
}

/** A fixture screen and the agent it belongs to. */
export interface FixtureScreen {
  agent: string;
  name: string;
  input: DetectInput;
}

/** Regions that can span the whole screen, where a loose blocked pattern would fire on prose. */
const WIDE_REGIONS = new Set(['whole_recent', 'above_prompt_box', 'after_last_horizontal_rule']);
const WIDE_COUNT = 12;

/** Lints manifest files against the schema and against fixture screens. */
export function lintManifests(files: string[], fixtures: FixtureScreen[]): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const file of files) {
    let manifest: CompiledManifest;
    try {
      const problems = manifestProblems(readRegularFile(file, LIMITS.maxManifestBytes), { file, source: `lint:${file}` });
      if (problems.length > 0) {
        // In the file's order: the checks meet them otherwise (the top level, then each table and rule).
        const inOrder = [...problems].sort((a, b) => (a.position?.line ?? 0) - (b.position?.line ?? 0));
        findings.push(...inOrder.map((problem) => loadFinding(file, problem)));
        continue;
      }
      manifest = loadManifestFile(file, `lint:${file}`).manifest;
    } catch (error) {
      findings.push(loadFinding(file, error));
      continue;
    }
    const screens = fixtures.filter((fixture) => fixture.agent === manifest.spec.id || manifest.spec.aliases.includes(fixture.agent));
    findings.push(...lintProse(manifest, file), ...lintAgainstFixtures(manifest, file, screens), ...lintPromptReaders(manifest, file, screens));
  }
  return findings;
}

/** A file that does not load, as a finding: the problem alone, its file and position in their fields. */
function loadFinding(file: string, error: unknown): LintFinding {
  if (!(error instanceof ManifestError)) {
    const loadError = toLoadError(file, error);
    return { level: 'error', code: loadError.code, file, rule: null, message: loadError.message };
  }
  const where = error.position ? { line: error.position.line, column: error.position.column } : {};
  return { level: 'error', code: error.code, file, rule: null, message: error.problem, ...where };
}

function lintProse(manifest: CompiledManifest, file: string): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const rule of manifest.rules) {
    if (rule.spec.state !== 'blocked') continue;
    const region = rule.spec.region;
    if (isWide(region) && !isAnchored(rule)) {
      findings.push({
        level: region.kind === 'after_last_horizontal_rule' ? 'warning' : 'error',
        code: 'blocked_rule_reads_prose',
        file,
        rule: rule.spec.id,
        message: `blocked rule ${rule.spec.id} reads ${region.name}, which can hold conversation text, with no anchored pattern; anchor it to a line (line_regex '^...') or to the bottom ('...$'), or cut a bottom region`,
      });
    }
  }
  return findings;
}

function isWide(region: RegionSpec): boolean {
  return WIDE_REGIONS.has(region.kind) || (region.count > WIDE_COUNT && region.kind !== 'osc_title');
}

/**
 * A pattern tied to the start of a line or the end of the region cannot fire on a phrase inside prose.
 * A matcher is anchored by its own patterns, by one required (`all`) gate that is anchored or reads a
 * narrow region, or by `any` gates that are all so.
 */
function isAnchored(matcher: CompiledMatcher): boolean {
  if (matcher.lineRegex.some((pattern) => pattern.source.startsWith('^'))) return true;
  if (matcher.regex.some((pattern) => pattern.source.endsWith('$'))) return true;
  const gateAnchored = (gate: CompiledGate) => (gate.region !== null && !isWide(gate.region)) || isAnchored(gate);
  return matcher.all.some(gateAnchored) || (matcher.any.length > 0 && matcher.any.every(gateAnchored));
}

function lintAgainstFixtures(manifest: CompiledManifest, file: string, screens: FixtureScreen[]): LintFinding[] {
  const findings: LintFinding[] = [];
  if (screens.length === 0) {
    findings.push({ level: 'warning', code: 'no_fixtures', file, rule: null, message: `no fixture screen for agent ${manifest.spec.id}; rules rest on documentation only` });
    return findings;
  }
  const hits = new Map<string, number>();
  const reported = new Set<string>();
  for (const screen of screens) {
    const reader = new RegionReader(screen.input);
    const matched = manifest.rules.filter((rule) => matches(rule, rule.spec.region, matchContext(reader, null, rule.logical, rule.spec.truncationMinPrefix)));
    for (const rule of matched) hits.set(rule.spec.id, (hits.get(rule.spec.id) ?? 0) + 1);
    for (let i = 0; i < matched.length; i++) {
      for (let j = i + 1; j < matched.length; j++) {
        const [a, b] = [matched[i]!, matched[j]!];
        if (a.spec.priority !== b.spec.priority) continue;
        const key = `${a.spec.id}\0${b.spec.id}`;
        if (reported.has(key)) continue;
        reported.add(key);
        const differ = a.spec.state !== b.spec.state;
        findings.push({
          level: differ ? 'error' : 'warning',
          code: 'equal_priority_overlap',
          file,
          rule: a.spec.id,
          message: `rules ${a.spec.id} (${a.spec.state}) and ${b.spec.id} (${b.spec.state}) share priority ${a.spec.priority} and both match fixture ${screen.name}; ${differ ? 'file order decides between two states: give them distinct priorities' : 'file order decides'}`,
        });
      }
    }
  }
  for (const rule of manifest.rules) {
    if (hits.has(rule.spec.id)) continue;
    findings.push({ level: 'warning', code: 'rule_never_matches', file, rule: rule.spec.id, message: `rule ${rule.spec.id} matches none of the ${screens.length} fixture screens of ${manifest.spec.id}; add a fixture that shows it` });
  }
  return findings;
}
