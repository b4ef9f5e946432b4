import type { PaneArbiter, ReportOutcome } from '../../arbiter/index.ts';
import { AGENT_EXPLAIN, AGENT_GET } from '../../protocol/methods/agent.ts';
import { PANE_RELEASE_AGENT, PANE_REPORT_AGENT, PANE_REPORT_SESSION } from '../../protocol/methods/report.ts';
import type { AgentService } from '../agents/agent-service.ts';
import { implement, type HandlerBinding, type RequestContext } from '../handler.ts';
import type { PaneRegistry } from '../pane-registry.ts';

export function agentHandlers(registry: PaneRegistry, agents: AgentService): HandlerBinding[] {
  return [
    implement(AGENT_GET, ({ target }) => agents.info(registry.resolve(target))),

    implement(AGENT_EXPLAIN, ({ target }) => {
      const pane = registry.resolve(target);
      const tracker = agents.of(pane);
      const { detection, arbiter } = tracker.explain();
      return {
        pane: { id: pane.id, name: pane.name },
        agent: agents.info(pane),
        process: pane.detail().process,
        detection,
        arbiter,
      };
    }),

    implement(PANE_REPORT_AGENT, ({ target, ...report }, context) => {
      const tracker = agents.of(registry.resolve(target));
      return tracker.report((arbiter) => bound(arbiter, report, context, (params) => arbiter.reportAgent(params)));
    }),

    implement(PANE_RELEASE_AGENT, ({ target, ...release }, context) => {
      const tracker = agents.of(registry.resolve(target));
      return tracker.report((arbiter) => bound(arbiter, release, context, (params) => arbiter.releaseAgent(params)));
    }),

    implement(PANE_REPORT_SESSION, ({ target, ...session }, context) => {
      const tracker = agents.of(registry.resolve(target));
      return tracker.report((arbiter) => bound(arbiter, session, context, (params) => arbiter.reportSession(params)));
    }),
  ];
}

/**
 * A report's reporter is the process on the other end of the socket, as the kernel says
 * (SO_PEERCRED), never the pid the report claims: a claimed pid that differs is refused
 * (`pid_mismatch`), and a report whose peer cannot be read binds to nothing (`not_in_pane`).
 */
function bound<P extends { source: string; pid?: number }>(
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
