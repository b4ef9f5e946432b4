import type { ForegroundProcess, ProcessMember } from '../../terminal/types.ts';

/** Which agent a process or a foreground group belongs to, by the manifests' identity rules. */
export interface AgentIdentifier {
  /**
   * The agent of a foreground group, the pid of the agent's own process (above wrappers), and what
   * named it: a member's CORRAL_AGENT hint, or the process itself (`detail`: the hint, path, package or pattern).
   */
  group(foreground: ForegroundProcess): { agent: string; pid: number; by: 'hint' | 'process'; detail: string } | null;
  /** The agent one process runs, or null. */
  process(member: ProcessMember): string | null;
  /** The agent a CORRAL_AGENT value names (a manifest id or alias), or null. */
  hint(value: string): string | null;
}
