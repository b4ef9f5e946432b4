import { AGENT_EXPLAIN, AGENT_GET } from '../../protocol/methods/agent.ts';
import { PANE_RELEASE_AGENT, PANE_REPORT_AGENT, PANE_REPORT_SESSION } from '../../protocol/methods/report.ts';
import type { AgentService } from '../agents/agent-service.ts';
import { implement, type HandlerBinding } from '../handler.ts';
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

    implement(PANE_REPORT_AGENT, ({ target, ...report }) => {
      const tracker = agents.of(registry.resolve(target));
      return tracker.report((arbiter) => arbiter.reportAgent(report));
    }),

    implement(PANE_RELEASE_AGENT, ({ target, ...release }) => {
      const tracker = agents.of(registry.resolve(target));
      return tracker.report((arbiter) => arbiter.releaseAgent(release));
    }),

    implement(PANE_REPORT_SESSION, ({ target, ...session }) => {
      const tracker = agents.of(registry.resolve(target));
      return tracker.report((arbiter) => arbiter.reportSession(session));
    }),
  ];
}
