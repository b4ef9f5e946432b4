import type { AgentInfo } from '../protocol/methods/agent.ts';
import type { PaneMetadata } from '../protocol/methods/metadata.ts';

/** How `top` and `agent list` show a pane's display metadata (pane.reportMetadata) beside its state. */

/** The title a person reads: the reported state label, then the reported title, else the program's own. */
export function titleOf(info: AgentInfo): string {
  const metadata = info.metadata as PaneMetadata | null;
  const title = metadata?.title ?? info.title ?? '';
  return metadata?.stateLabel ? `[${metadata.stateLabel}]${title ? ` ${title}` : ''}` : title;
}

/** The agent as reported for display (`displayAgent`), else the identified one. */
export function agentOf(info: AgentInfo): string {
  return (info.metadata as PaneMetadata | null)?.displayAgent ?? info.agent ?? '-';
}

/** Reported tokens, short: 950, 12.3k, 4.1M; empty when none was reported. */
export function tokensOf(info: AgentInfo): string {
  const tokens = (info.metadata as PaneMetadata | null)?.tokens;
  if (tokens === undefined) return '';
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}
