import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readRegularFileBytes, RegularFileError } from '../manifest-store/regular-file.ts';
import { MAX_POLICY_BYTES, parsePolicy, type PolicyFileRole } from './parse-policy.ts';
import { PolicyError } from './policy-error.ts';
import { DEFAULT_LOOP_LIMIT, MAX_POLICY_FILES, type Policy, type PolicyFile, type PolicyRule } from './policy-spec.ts';

/** `policy.toml` beside config.toml: the main policy file. */
export function mainPolicyPath(configPath: string): string {
  return join(dirname(configPath), 'policy.toml');
}

/** A project's own policy, which only narrows: `.corral/policy.toml` in the pane's working folder. */
export function projectPolicyPath(cwd: string): string {
  return join(cwd, '.corral', 'policy.toml');
}

/** Reads one file; null when it is absent and may be (`required` false). */
function readPolicyFile(path: string, role: PolicyFileRole, firstNumber: number, required: boolean): PolicyFile | null {
  let text: string;
  try {
    text = readRegularFileBytes(path, MAX_POLICY_BYTES, { followSymlink: true, what: 'policy' }).bytes.toString('utf8');
  } catch (error) {
    if (!(error instanceof RegularFileError)) throw error;
    if (error.code === 'file_absent' && !required) return null;
    throw new PolicyError(path, null, error.problem);
  }
  return parsePolicy(text, path, role, firstNumber);
}

/**
 * The policy of a daemon whose config is `configPath`: `policy.toml` beside it (absent: no rules of
 * its own), then each file `[policy] files` names (relative to the config's folder; each must exist),
 * their rules numbered on in that order. Any file that fails refuses the whole policy.
 */
export function loadPolicy(configPath: string, extras: readonly string[] = []): Policy {
  if (extras.length > MAX_POLICY_FILES) throw new PolicyError(configPath, null, `[policy] files names more than ${MAX_POLICY_FILES} files`);
  const main = readPolicyFile(mainPolicyPath(configPath), 'main', 1, false);
  const files: PolicyFile[] = main ? [main] : [];
  let next = (main?.rules.length ?? 0) + 1;
  for (const extra of extras) {
    const path = isAbsolute(extra) ? extra : resolve(dirname(configPath), extra);
    const file = readPolicyFile(path, 'extra', next, true)!;
    files.push(file);
    next += file.rules.length;
  }
  return {
    files: files.map((file) => file.file),
    mode: main?.mode ?? 'on',
    loopLimit: main?.loopLimit ?? DEFAULT_LOOP_LIMIT,
    answerDelayMs: main?.answerDelayMs ?? 0,
    rules: files.flatMap((file) => file.rules),
  };
}

/** A policy read from one file as the main one (`corral policy test FILE`). */
export function loadPolicyFile(path: string): Policy {
  const file = readPolicyFile(path, 'main', 1, true)!;
  return { files: [file.file], mode: file.mode ?? 'on', loopLimit: file.loopLimit ?? DEFAULT_LOOP_LIMIT, answerDelayMs: file.answerDelayMs ?? 0, rules: file.rules };
}

/**
 * `policy` narrowed by the project's own file in `cwd`, when there is one: its rules (deny and ask
 * only) are tried first. A project file that cannot be read or is not valid narrows to `ask`: the
 * error is the reason of every decision in that folder.
 */
export function withProjectRules(policy: Policy, cwd: string | null): Policy | PolicyError {
  if (cwd === null || policy.rules.length === 0) return policy;
  let project: PolicyFile | null;
  try {
    project = readPolicyFile(projectPolicyPath(cwd), 'project', 1, false);
  } catch (error) {
    if (error instanceof PolicyError) return error;
    throw error;
  }
  if (project === null || project.rules.length === 0) return policy;
  const offset = project.rules.length;
  const renumbered: PolicyRule[] = policy.rules.map((rule) => ({ ...rule, number: rule.number + offset }));
  return { ...policy, files: [project.file, ...policy.files], rules: [...project.rules, ...renumbered] };
}
