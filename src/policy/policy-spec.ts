import type { PromptKind } from '../protocol/prompt.ts';
import type { AnchoredRegex } from './anchored-regex.ts';

/** What a rule does with a prompt it matches (docs/policy.md). */
export const POLICY_ACTIONS = ['allow', 'deny', 'ask'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

/** `on` answers, `dry-run` decides and logs without typing, `off` decides nothing. */
export const POLICY_MODES = ['on', 'dry-run', 'off'] as const;
export type PolicyMode = (typeof POLICY_MODES)[number];

/** The loop guard's default: automatic answers per pane in any minute, after which the policy asks. */
export const DEFAULT_LOOP_LIMIT = 10;
export const MAX_LOOP_LIMIT = 120;
/** The grace between a decision and its keys, at most: time to pause the policy, and for the dialog to settle. */
export const MAX_ANSWER_DELAY_MS = 10_000;
/** Rules in one file at most, and files in one policy. */
export const MAX_RULES = 500;
export const MAX_POLICY_FILES = 16;

/** One `[[rule]]`: every key it sets must match; a key it leaves out matches anything. */
export interface PolicyRule {
  /** 1-based over the whole policy, in the order rules are tried. */
  readonly number: number;
  readonly name: string | null;
  readonly file: string;
  readonly line: number;
  readonly agent: readonly string[] | null;
  readonly host: readonly string[] | null;
  readonly workspace: readonly string[] | null;
  readonly pane: readonly string[] | null;
  readonly kind: readonly PromptKind[] | null;
  /** Lower case: `bash`, `edit`, `mcp`. */
  readonly tool: readonly string[] | null;
  readonly command: AnchoredRegex | null;
  readonly path: AnchoredRegex | null;
  readonly cwd: AnchoredRegex | null;
  readonly compound: boolean;
  readonly action: PolicyAction;
  /** The choice an allow (or a deny) takes, by id; null: the prompt's allow-once (or deny) choice. */
  readonly choice: string | null;
  readonly message: string | null;
}

/** One file as read: its settings (only the main file may hold them) and its rules. */
export interface PolicyFile {
  readonly file: string;
  readonly mode: PolicyMode | null;
  readonly loopLimit: number | null;
  readonly answerDelayMs: number | null;
  readonly rules: readonly PolicyRule[];
}

/** The policy a daemon runs: its files' rules in order, first match wins, `ask` when none does. */
export interface Policy {
  readonly files: readonly string[];
  readonly mode: PolicyMode;
  readonly loopLimit: number;
  /** How long after deciding the keys are typed: the dialog must still be the one decided on. */
  readonly answerDelayMs: number;
  readonly rules: readonly PolicyRule[];
}

export const EMPTY_POLICY: Policy = Object.freeze({ files: [], mode: 'on', loopLimit: DEFAULT_LOOP_LIMIT, answerDelayMs: 0, rules: [] });
