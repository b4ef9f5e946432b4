import { CorralError } from '../../protocol/errors.ts';
import { DEFAULT_ANSWER_TIMEOUT_MS } from '../../protocol/methods/agent-act.ts';
import type { AgentState } from '../../protocol/states.ts';
import type { AgentService } from '../agents/agent-service.ts';
import type { PaneRecord } from '../pane-record.ts';
import { currentAgent } from './prompt.ts';
import { keyBytes } from './typing.ts';

export interface AnswerRequest {
  choice?: number;
  keys?: string[];
  timeoutMs?: number;
}

/** The bytes of an answer: the option number as typed digits, or the named keys. */
function answerBytes({ choice, keys }: AnswerRequest): string {
  if ((choice === undefined) === (keys === undefined)) {
    throw new CorralError('invalid_params', 'pass "choice" (an option number) or "keys", exactly one of them', { field: 'choice' });
  }
  if (keys !== undefined && keys.length === 0) throw new CorralError('invalid_params', '"keys" must name at least one key', { field: 'keys' });
  return choice !== undefined ? String(choice) : keyBytes(keys!);
}

/**
 * Answers a blocked agent (seed 003: answering a permission prompt is its own act, never plain input):
 * re-reads the screen, refuses an agent that is not blocked, sends the answer, and resolves once a
 * published change shows the agent out of blocked, or fails with `timeout`.
 */
export function answerAgent(
  agents: AgentService,
  pane: PaneRecord,
  request: AnswerRequest,
  signal: AbortSignal,
): Promise<{ state: AgentState; elapsedMs: number }> {
  const bytes = answerBytes(request);
  const view = currentAgent(agents, pane);
  if (view.state !== 'blocked') {
    throw new CorralError(
      'agent_not_blocked',
      `${view.agent} in pane ${pane.label()} is ${view.displayed}, not waiting on a decision; send a prompt with \`corral agent prompt\``,
      { id: pane.id, state: view.displayed },
    );
  }
  // A client gone before this ran never hears the answer: send nothing.
  if (signal.aborted) throw new CorralError('cancelled', 'the client went away before the answer was sent');
  const timeoutMs = request.timeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const subscription = agents.onChange((change) => {
      if (change.pane !== pane || change.extrasOnly) return;
      if (change.record.kind === 'released' || change.record.after.state !== 'blocked') {
        finish();
        resolve({ state: change.info.state, elapsedMs: Date.now() - started });
      }
    });
    const timer = setTimeout(() => {
      finish();
      reject(
        new CorralError('timeout', `${view.agent} in pane ${pane.label()} is still blocked ${timeoutMs} ms after the answer; read its screen`, {
          id: pane.id,
          elapsedMs: Date.now() - started,
        }),
      );
    }, timeoutMs);
    const aborted = () => {
      finish();
      reject(new CorralError('cancelled', 'the client went away before the agent left blocked'));
    };
    signal.addEventListener('abort', aborted, { once: true });
    function finish(): void {
      subscription.dispose();
      clearTimeout(timer);
      signal.removeEventListener('abort', aborted);
    }
    pane.write(bytes);
  });
}
