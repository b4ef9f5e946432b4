import { AGENT_EXPLAIN, AGENT_GET } from '../../protocol/methods/agent.ts';
import { PANE_RELEASE_AGENT, PANE_REPORT_AGENT, PANE_REPORT_SESSION } from '../../protocol/methods/report.ts';
import type { AgentService } from './agent-service.ts';
import { implement, type DaemonPart, type HandlerBinding, type RequestContext } from '../rpc/handler.ts';
import { bound } from './reporter-binding.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { DaemonCore } from './core.ts';
import { ExternalPanes } from './external-panes.ts';
import { manifestHandlers } from './manifest-handlers.ts';
import { agentQueryHandlers } from './query-handlers.ts';

type Answer = { accepted: boolean; reason?: string };

/** The agents' part: reading and explaining agents, their reports (and the external panes they list), the manifests. */
export function startAgents({ registry, agents, log }: DaemonCore): DaemonPart {
  const externals = new ExternalPanes(registry, agents, log);
  return {
    handlers: [...reportHandlers(registry, agents, externals), ...agentQueryHandlers(registry, agents), ...manifestHandlers(agents)],
    dispose: () => externals.dispose(),
  };
}

function reportHandlers(registry: PaneRegistry, agents: AgentService, externals: ExternalPanes): HandlerBinding[] {
  /**
   * A report without a target comes from an agent started outside Corral: it goes to the external pane
   * of its source and session, listed by its first state report. A pane listed for a report that did not
   * take is removed again, so a refused report leaves nothing behind.
   */
  const external = (source: string, session: string | undefined, create: boolean, context: RequestContext, admit: (pane: PaneRecord) => Answer): Answer => {
    if (session === undefined) return { accepted: false, reason: 'invalid_report' };
    const existing = externals.find(source, session);
    if (existing === undefined && !create) return { accepted: false, reason: 'no_report' };
    const pane = existing ?? externals.paneFor(source, session, context.connection.peer?.pid ?? null);
    const answer = admit(pane);
    if (existing === undefined && agents.find(pane)?.view().agent == null) void registry.remove(pane);
    return answer;
  };

  return [
    implement(AGENT_GET, ({ target }) => {
      const pane = registry.resolve(target);
      const info = agents.info(pane);
      const composer = agents.find(pane)?.composer() ?? null;
      return composer === null ? info : { ...info, composer: composer.draft };
    }),

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
        prompt: tracker.prompt(),
      };
    }),

    implement(PANE_REPORT_AGENT, ({ target, record, ...report }, context) => {
      const gist = { source: report.source, state: report.state, ...(report.message !== undefined ? { message: report.message } : {}) };
      const admit = (pane: PaneRecord) => named(agents, pane, record, agents.of(pane).report((arbiter) => bound(arbiter, report, context, (params) => arbiter.reportAgent(params)), gist));
      return target === undefined ? external(report.source, report.session, true, context, admit) : admit(registry.resolve(target));
    }),

    implement(PANE_RELEASE_AGENT, ({ target, ...release }, context) => {
      const admit = (pane: PaneRecord) => agents.of(pane).report((arbiter) => bound(arbiter, release, context, (params) => arbiter.releaseAgent(params)));
      return target === undefined ? external(release.source, release.session, false, context, admit) : admit(registry.resolve(target));
    }),

    implement(PANE_REPORT_SESSION, ({ target, record, ...session }, context) => {
      const admit = (pane: PaneRecord) => named(agents, pane, record, agents.of(pane).report((arbiter) => bound(arbiter, session, context, (params) => arbiter.reportSession(params))));
      return target === undefined ? external(session.source, session.session, false, context, admit) : admit(registry.resolve(target));
    }),
  ];
}

/** An accepted report that names the agent's record tells the usage reader of it (docs/usage.md). */
function named(agents: AgentService, pane: PaneRecord, record: { format: string; path: string } | undefined, answer: Answer): Answer {
  if (record !== undefined && answer.accepted) agents.nameRecord({ pane, ...record });
  return answer;
}
