import type { ForegroundProcess, ProcessMember } from '../../terminal/types.ts';

/** Which agent a process or a foreground group belongs to, by the manifests' identity rules. */
export interface AgentIdentifier {
  /** The agent of a foreground group, and the pid of the agent's own process (above wrappers). */
  group(foreground: ForegroundProcess): { agent: string; pid: number } | null;
  /** The agent one process runs, or null. */
  process(member: ProcessMember): string | null;
  /** The agent a CORRAL_AGENT value names (a manifest id or alias), or null. */
  hint(value: string): string | null;
}
