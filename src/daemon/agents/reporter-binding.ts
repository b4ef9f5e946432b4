import type { PaneArbiter, ReportOutcome } from '../../arbiter/index.ts';
import type { RequestContext } from '../rpc/handler.ts';

/**
 * A report's reporter (or a hook's question's caller) is the process on the other end of the socket,
 * as the kernel says (SO_PEERCRED), never the pid it claims: a claimed pid that differs is refused
 * (`pid_mismatch`), and a caller whose peer cannot be read binds to nothing (`not_in_pane`).
 */
export function bound<P extends { source: string; pid?: number }>(
  arbiter: PaneArbiter,
  params: P,
  context: RequestContext,
  deliver: (params: P & { declaredPid?: number }) => ReportOutcome,
): ReportOutcome {
  const peer = context.connection.peer;
  if (peer === null) return arbiter.refuse(params.source, 'not_in_pane', 'the reporting process could not be identified from the socket');
  if (peer.uid !== process.getuid?.()) return arbiter.refuse(params.source, 'not_in_pane', `the reporter runs as uid ${peer.uid}`);
  const { pid: declared, ...rest } = params;
  return deliver({ ...(rest as unknown as P), pid: peer.pid, ...(declared !== undefined ? { declaredPid: declared } : {}) });
}
