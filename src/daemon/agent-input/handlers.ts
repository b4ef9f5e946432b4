import { AGENT_ANSWER, AGENT_PROMPT, AGENT_QUEUE, AGENT_CLEAR_QUEUE } from '../../protocol/methods/agent-act.ts';
import { answerAgent } from './answer.ts';
import { promptAgent } from './prompt.ts';
import type { SteeringQueues } from './steering-queue.ts';
import type { AgentService } from '../agents/agent-service.ts';
import { implement, type HandlerBinding } from '../rpc/handler.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';

export function agentActHandlers(registry: PaneRegistry, agents: AgentService, queues: SteeringQueues): HandlerBinding[] {
  return [
    implement(AGENT_PROMPT, ({ target, ...request }) => promptAgent(agents, queues, registry.resolve(target), request)),

    implement(AGENT_ANSWER, ({ target, ...request }, { signal }) => answerAgent(agents, registry.resolve(target), request, signal)),

    implement(AGENT_QUEUE, ({ target }) => {
      const pane = registry.resolve(target);
      return { queued: queues.size(pane.id), prompts: queues.list(pane.id) };
    }),

    implement(AGENT_CLEAR_QUEUE, ({ target }) => ({ cleared: queues.clear(registry.resolve(target).id, 'request') })),
  ];
}
