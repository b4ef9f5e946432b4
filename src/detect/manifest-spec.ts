import type { ComposerSpec } from './composer-spec.ts';
import type { RawState } from '../protocol/states.ts';
import type { PromptReaderSpec } from './prompt-spec.ts';
import type { RegionSpec } from './region-spec.ts';

/** Matchers shared by rules and gates; every present matcher must pass. */
export interface MatcherSpec {
  contains: string[];
  regex: string[];
  lineRegex: string[];
  all: GateSpec[];
  any: GateSpec[];
  not: GateSpec[];
}

export interface GateSpec extends MatcherSpec {
  region: RegionSpec | null; // null: the enclosing rule's or gate's region
}

export interface RuleSpec extends MatcherSpec {
  id: string;
  state: RawState;
  priority: number;
  region: RegionSpec;
  visibleIdle: boolean;
  visibleBlocker: boolean;
  visibleWorking: boolean;
  skipStateUpdate: boolean;
  evidence: string | null;
  /** `lines`: 'logical' joins soft-wrapped rows for every matcher of the rule. */
  lines: 'rows' | 'logical';
  truncationMinPrefix: number | null;
  motionWithinMs: number | null;
  /** `motion_only`: the patterns say nothing by themselves; without a clock (a saved screen) the rule does not hold. */
  motionOnly: boolean;
  /** `weak` (idle rules): a cue also drawn through a turn (a prompt box); a fresh pushed working outranks it. */
  weak: boolean;
  quietForMs: number | null;
  index: number; // position in the file; ties in priority go to the lower index
}

export interface IdentitySpec {
  executables: string[];
  packages: string[];
  argvPatterns: string[];
}

/** How Corral adds the agent's own hooks to one launch (docs/manifests.md, `[integration]`). */
export type IntegrationMechanism = 'settings_flag' | 'notify_config' | 'settings_env' | 'plugin_dir';

export interface IntegrationSpec {
  /** The `corral report --hook` mapping its events go through. */
  hook: string;
  mechanism: IntegrationMechanism;
  /** The flag (settings_flag), config key (notify_config) or environment variable (settings_env) used. */
  target: string;
  /** settings_env: where the agent reads that file when the variable is unset (merged into ours). */
  defaultPath: string | null;
  /** The hook events registered. */
  events: string[];
  /** The first version of the agent known to carry the mechanism (documentation). */
  since: string;
  /** Whether these hooks see every transition: then `hook:<hook>` is a full-lifecycle source. */
  fullLifecycle: boolean;
  /**
   * settings_env: the agent reads the file only when it and every folder above it belong to root and
   * only root can write them (Gemini CLI), so a daemon not running as root cannot add hooks this way.
   */
  rootOwned: boolean;
  /** The user's own file `corral integration install` edits (`~` is $HOME), or null. */
  userFile: string | null;
  /** An environment variable naming the folder that holds `userFile` instead (CLAUDE_CONFIG_DIR), or null. */
  userDirEnv: string | null;
}

/** A validated manifest, before its patterns are compiled. */
export interface ManifestSpec {
  id: string;
  name: string;
  aliases: string[];
  version: string;
  minEngineVersion: number;
  fallback: 'unknown' | 'idle';
  identity: IdentitySpec;
  reports: { fullLifecycleSources: string[] };
  /** How to resume a conversation: arguments appended to the command, `{session}` replaced by the session id. */
  resume: { args: string[] } | null;
  integration: IntegrationSpec | null;
  rules: RuleSpec[];
  /** How to read a blocked agent's dialog as data (`[[prompts]]`, prompt-schema.ts). */
  prompts: PromptReaderSpec[];
  /** How to read and empty the agent's input box (`[composer]`, composer-spec.ts), or null. */
  composer: ComposerSpec | null;
}
