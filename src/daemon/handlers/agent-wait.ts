import { CorralError } from '../../protocol/errors.ts';
import { AGENT_WAIT, DEFAULT_WAIT_UNTIL } from '../../protocol/methods/agent-wait.ts';
import type { AgentService } from '../agents/agent-service.ts';
import { implement, type HandlerBinding } from '../handler.ts';
import type { PaneRegistry } from '../pane-registry.ts';
import { expandUntil } from '../waits/wait-match.ts';
import type { WaitHub } from '../waits/wait-hub.ts';

export function agentWaitHandlers(registry: PaneRegistry, agents: AgentService, hub: WaitHub): HandlerBinding[] {
  return [
    implement(AGENT_WAIT, (params, context) => {
      const current = agents.stateChangeSeq;
      if (params.sinceSeq !== undefined && params.sinceSeq > current) {
        throw new CorralError(
          'invalid_params',
          `"sinceSeq" ${params.sinceSeq} is ahead of the daemon's state_change_seq ${current} (did the daemon restart?); take a fresh one from \`corral agent list --json\``,
          { field: 'sinceSeq', seq: current },
        );
      }
      const targets = [...new Set(params.targets)].map((name) => ({ name, pane: registry.resolve(name) }));
      return hub.wait(
        {
          targets,
          want: expandUntil(params.until ?? DEFAULT_WAIT_UNTIL),
          mode: params.mode ?? 'any',
          stableMs: params.stableMs ?? 0,
          ...(params.sinceSeq !== undefined ? { sinceSeq: params.sinceSeq } : {}),
          ...(params.timeoutMs !== undefined ? { timeoutMs: params.timeoutMs } : {}),
        },
        context.signal,
      );
    }),
  ];
}
