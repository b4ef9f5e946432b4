/** What `corral up` did with one agent (docs/fleet.md). */
export const UP_ACTIONS = ['started', 'unchanged', 'restarted', 'differs', 'replaced', 'failed'] as const;
/** What `corral down` did with one agent. */
export const DOWN_ACTIONS = ['ended', 'absent', 'failed'] as const;

export interface AgentOutcome {
  name: string;
  /** The host as the file names it; null: this machine. */
  host: string | null;
  action: (typeof UP_ACTIONS)[number] | (typeof DOWN_ACTIONS)[number];
  /** Its pane id on that host, when it has one. */
  pane: string | null;
  /** How the running pane differs from the file (`differs`, `replaced`). */
  differences?: string[];
  /** The worktree it runs in, and whether this run made it. */
  worktree?: { path: string; made: boolean };
  /** Its `prompt` was typed this run. */
  prompted?: true;
  /** The state it was in when `--wait` returned. */
  state?: string;
  error?: { code: string; message: string };
}

/** A thrown error as a stable code and its message. */
export function errorOf(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown })?.code;
  return { code: typeof code === 'string' && /^[a-z_]+$/.test(code) ? code : 'internal_error', message: error instanceof Error ? error.message : String(error) };
}
