import { AGENT_ANSWER, AGENT_PROMPT, AGENT_QUEUE, AGENT_CLEAR_QUEUE, type QueuedPrompt } from '../../protocol/methods/agent-act.ts';
import { answerAgent } from './answer.ts';
import { prepareComposer, promptTaken } from './composer.ts';
import { promptAgent } from './prompt.ts';
import { SteeringQueues } from './steering-queue.ts';
import { typePrompt } from './typing.ts';
import { budgetExceeded, NO_BUDGETS, type BudgetGate } from './budget-gate.ts';
import type { DaemonCore } from '../agents/core.ts';
import type { AgentService } from '../agents/agent-service.ts';
import { implement, type DaemonPart, type HandlerBinding } from '../rpc/handler.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';

/** What is typed into agents: the steering queues and the methods that type, answer and queue. */
export function startAgentInput(core: DaemonCore, gate: BudgetGate = NO_BUDGETS): DaemonPart & { readonly queues: SteeringQueues } {
  const { registry, agents, log } = core;
  const type = async (pane: PaneRecord, prompt: QueuedPrompt) => {
    await typePrompt(pane, await prepareComposer(agents, pane, prompt.text, prompt.composer), prompt.submit);
    if (prompt.submit) await promptTaken(agents, pane);
  };
  const queues = new SteeringQueues({ registry, agents, log, type, held: (paneId) => gate.held(paneId) !== null });
  const queued = agents.registerExtra('queued', (paneId) => queues.size(paneId));
  return {
    queues,
    handlers: agentActHandlers(registry, agents, queues, gate),
    dispose: () => {
      queued.dispose();
      queues.dispose();
    },
  };
}

function agentActHandlers(registry: PaneRegistry, agents: AgentService, queues: SteeringQueues, gate: BudgetGate): HandlerBinding[] {
  return [
    implement(AGENT_PROMPT, ({ target, force, ...request }) => {
      const pane = registry.resolve(target);
      const held = gate.held(pane.id);
      if (held === null) return promptAgent(agents, queues, pane, request);
      if (force !== true) throw budgetExceeded(pane, held);
      // Forced past a spent budget: typed now, since the queue holds until the budget's period turns.
      return promptAgent(agents, queues, pane, { ...request, queue: false });
    }),

    implement(AGENT_ANSWER, ({ target, ...request }, { signal }) => answerAgent(agents, registry.resolve(target), request, signal)),

    implement(AGENT_QUEUE, ({ target }) => {
      const pane = registry.resolve(target);
      return { queued: queues.size(pane.id), prompts: queues.list(pane.id) };
    }),

    implement(AGENT_CLEAR_QUEUE, ({ target }) => ({ cleared: queues.clear(registry.resolve(target).id, 'request') })),
  ];
}
