import { CorralError } from '../../protocol/errors.ts';
import { DEFAULT_ANSWER_TIMEOUT_MS, type AnswerResult } from '../../protocol/methods/agent-act.ts';
import type { AgentPrompt, PromptChoice } from '../../protocol/prompt.ts';
import type { AgentService } from '../agents/agent-service.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import { AnswerLedger } from './answer-ledger.ts';
import { currentAgent } from './prompt.ts';
import { keyBytes } from '../panes/keys.ts';
import { typePrompt } from './typing.ts';

interface AnswerRequest {
  /** A choice id of the prompt, or an option number typed as digits. */
  choice?: number | string;
  keys?: string[];
  /** The answer to a free-text question, typed and submitted with Enter. */
  text?: string;
  /** The prompt the caller saw (AgentInfo.prompt.id): the answer lands on that prompt or nowhere. */
  promptId?: string;
  timeoutMs?: number;
}

const ledgers = new WeakMap<PaneRecord, AnswerLedger>();

/** One of choice, keys or text, checked before anything else. */
function checkOne({ choice, keys, text }: AnswerRequest): void {
  const given = [choice, keys, text].filter((value) => value !== undefined).length;
  if (given !== 1) throw new CorralError('invalid_params', 'pass exactly one of "choice" (a choice id or option number), "keys" or "text"', { field: 'choice' });
  if (keys !== undefined && keys.length === 0) throw new CorralError('invalid_params', '"keys" must name at least one key', { field: 'keys' });
}

/** The choice of the prompt that `id` names, or an error that lists the prompt's choices. */
function choiceOf(prompt: AgentPrompt | null, id: string, pane: PaneRecord): PromptChoice {
  const choices = prompt?.choices ?? [];
  const found = choices.find((choice) => choice.id === id);
  if (!found) {
    const known = choices.map((choice) => choice.id);
    throw new CorralError(
      'invalid_params',
      known.length > 0
        ? `the prompt in pane ${pane.label()} has no choice "${id}"; its choices: ${known.join(', ')}`
        : `the prompt in pane ${pane.label()} offers no choices Corral can read (${prompt?.note ?? 'no prompt read'}); answer with keys or text`,
      { field: 'choice', choices: known, prompt },
    );
  }
  if (found.keys.length === 0) {
    throw new CorralError('invalid_params', `choice "${id}" has no key Corral knows (${prompt?.note ?? 'the screen does not show how it is chosen'}); answer with keys`, {
      field: 'choice',
      prompt,
    });
  }
  return found;
}

/**
 * Answers a blocked agent (seed 003: answering a permission prompt is its own act, never plain input):
 * re-reads the screen, refuses an agent that is not blocked or whose prompt is not the one named
 * (`prompt_changed`, nothing typed), types the answer once per prompt and answer (a repeated request
 * gets the first one's outcome), and resolves once the agent left blocked or shows its next prompt.
 */
export function answerAgent(agents: AgentService, pane: PaneRecord, request: AnswerRequest, signal: AbortSignal): Promise<AnswerResult> {
  checkOne(request);
  let ledger = ledgers.get(pane);
  if (!ledger) ledgers.set(pane, (ledger = new AnswerLedger()));
  const key = request.promptId === undefined ? null : AnswerLedger.key(request.promptId, request);
  const earlier = key === null ? undefined : ledger.get(key);
  if (earlier) return earlier.then((result) => ({ ...result, repeated: true as const }));

  const view = currentAgent(agents, pane); // re-reads the screen, and with it the prompt, now
  if (view.state !== 'blocked') {
    throw new CorralError(
      'agent_not_blocked',
      `${view.agent} in pane ${pane.label()} is ${view.displayed}, not waiting on a decision; send a prompt with \`corral agent prompt\``,
      { id: pane.id, state: view.displayed },
    );
  }
  const prompt = agents.of(pane).prompt();
  if (request.promptId !== undefined && prompt?.id !== request.promptId) {
    throw new CorralError(
      'prompt_changed',
      `the prompt in pane ${pane.label()} is no longer ${request.promptId}${prompt ? ` (now ${prompt.id}: ${JSON.stringify(prompt.text.split('\n')[0] ?? '')})` : ''}; nothing was typed: answer the current prompt`,
      { id: pane.id, promptId: request.promptId, prompt },
    );
  }
  const send = sender(request, prompt, pane);
  // A client gone before this ran never hears the answer: send nothing.
  if (signal.aborted) throw new CorralError('cancelled', 'the client went away before the answer was sent');
  const outcome = awaitOutcome(agents, pane, prompt?.id ?? null, request.timeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS, signal, send);
  if (key !== null) ledger.remember(key, outcome);
  return outcome;
}

/** What typing the answer is: the chosen choice's keys, digits, named keys, or text submitted with Enter. */
function sender(request: AnswerRequest, prompt: AgentPrompt | null, pane: PaneRecord): () => void {
  const { choice, keys, text } = request;
  if (text !== undefined) return () => void typePrompt(pane, text, true);
  const bytes = typeof choice === 'string' ? keyBytes(choiceOf(prompt, choice, pane).keys) : choice !== undefined ? String(choice) : keyBytes(keys!);
  return () => pane.write(bytes);
}

function awaitOutcome(agents: AgentService, pane: PaneRecord, answered: string | null, timeoutMs: number, signal: AbortSignal, send: () => void): Promise<AnswerResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const subscription = agents.onChange((change) => {
      if (change.pane !== pane) return;
      if (change.extrasOnly && !change.promptChanged) return;
      if (change.record.kind === 'released' || change.record.after.state !== 'blocked') {
        finish();
        resolve({ state: change.info.state, elapsedMs: Date.now() - started });
      } else if (change.info.prompt && change.info.prompt.id !== answered) {
        // The next question of a form: still blocked, on a new prompt the caller can answer in turn.
        finish();
        resolve({ state: change.info.state, elapsedMs: Date.now() - started, prompt: change.info.prompt });
      }
    });
    const timer = setTimeout(() => {
      finish();
      reject(
        new CorralError('timeout', `the agent in pane ${pane.label()} is still blocked on the same prompt ${timeoutMs} ms after the answer; read its screen`, {
          id: pane.id,
          elapsedMs: Date.now() - started,
          prompt: agents.find(pane)?.prompt() ?? null,
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
    send();
  });
}
