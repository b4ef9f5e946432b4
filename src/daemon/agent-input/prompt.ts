import { CorralError } from '../../protocol/errors.ts';
import type { ComposerMode, PromptResult } from '../../protocol/methods/agent-act.ts';
import type { AgentView } from '../../arbiter/index.ts';
import type { AgentService } from '../agents/agent-service.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { SteeringQueues } from './steering-queue.ts';
import { assertInputRoom } from '../panes/input-room.ts';
import { prepareComposer, promptTaken } from './composer.ts';
import { typePrompt } from './typing.ts';

interface PromptRequest {
  text: string;
  submit?: boolean;
  /** Default true: a working agent gets the prompt queued; false types it at once. */
  queue?: boolean;
  composer?: ComposerMode;
}

/** The agent's state as of now, or `agent_not_found`; prompt and answer act on this, never an older verdict. */
export function currentAgent(agents: AgentService, pane: PaneRecord): AgentView {
  pane.assertRunning();
  const view = agents.of(pane).refresh();
  if (view.agent === null) {
    throw new CorralError('agent_not_found', `pane ${pane.label()} has no identified agent; use \`corral pane send\` to type into it`, {
      id: pane.id,
    });
  }
  return view;
}

/**
 * Types a prompt into the pane's agent and submits it. A working agent (or one with prompts already
 * waiting) gets it queued in the steering queue, typed when it is next idle; `queue: false` types it at
 * once, and the agent decides itself what typing while working means. A blocked agent is refused:
 * answering its prompt is a separate act. A draft in the input box refuses it too, unless the request
 * says to replace it or append to it (composer.ts); a queued prompt meets that check when it is typed.
 */
export async function promptAgent(agents: AgentService, queues: SteeringQueues, pane: PaneRecord, request: PromptRequest): Promise<PromptResult> {
  const { text, submit = true, queue = true, composer } = request;
  const view = currentAgent(agents, pane);
  if (view.state === 'blocked' && !agents.of(pane).leavingBlocked()) {
    throw new CorralError(
      'agent_blocked',
      `${view.agent} in pane ${pane.label()} waits on a decision; answer it with \`corral agent answer ${pane.name ?? pane.id} CHOICE\` (agent.answer)`,
      { id: pane.id, state: view.displayed, prompt: agents.of(pane).prompt() },
    );
  }
  // Queued or typed now, the prompt waits for the program to read it: it counts against the pane's input bound.
  assertInputRoom(pane, Buffer.byteLength(text) + (submit ? 1 : 0), queues.queuedBytes(pane.id));
  if (queue && queues.mustWait(pane, view.state)) return { queued: true, position: queues.enqueue(pane, { text, submit, ...(composer ? { composer } : {}) }) };
  const seq = agents.stateChangeSeq;
  await typePrompt(pane, await prepareComposer(agents, pane, text, composer), submit);
  if (submit) await promptTaken(agents, pane);
  return { delivered: true, seq };
}
