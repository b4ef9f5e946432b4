import type { IntegrationSpec } from '../detect/manifest-spec.ts';

/** What one launch looks like: the program, its arguments and its environment. */
export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** A launch with the agent's hooks added, and the files written for it (removed when the pane ends). */
export interface IntegratedLaunch extends Launch {
  files: string[];
  /** What was added, for pane info and logs: e.g. `claude --settings`. */
  summary: string;
}

/** Everything a mechanism needs besides the launch itself. */
export interface IntegrationContext {
  spec: IntegrationSpec;
  /** argv of the hook command, e.g. [node, .../bin/corral, report, --hook, claude]. */
  hookArgv: string[];
  /** A folder private to this pane for files the agent reads. */
  dir: string;
  /** The daemon's own environment: where the user's settings are found (HOME, CODEX_HOME, ...). */
  userEnv: NodeJS.ProcessEnv;
}

/** One shell word: hooks given as command strings are run by a shell. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
