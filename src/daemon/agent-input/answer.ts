import { CorralError } from '../../protocol/errors.ts';
import { ANSWER_SETTLE_MS, DEFAULT_ANSWER_TIMEOUT_MS, type AnswerOutcome, type AnswerResult } from '../../protocol/methods/agent-act.ts';
import type { AgentState } from '../../protocol/states.ts';
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

/** Refuses a choice the prompt does not show, naming the ones it does (data.choices). */
function notOffered(prompt: AgentPrompt, choice: string, pane: PaneRecord): CorralError {
  const offered = prompt.choices.map((c) => (c.keys.length === 1 && c.keys[0] !== c.id ? `${c.id} [${c.keys[0]}]` : c.id));
  return new CorralError('choice_not_offered', `the prompt in pane ${pane.label()} offers no choice ${choice}; its choices: ${offered.join(', ')}; nothing was typed`, {
    field: 'choice',
    choices: prompt.choices.map((c) => c.id),
    prompt,
  });
}

/** The choice of the prompt that `id` names, or an error that lists the prompt's choices. */
function choiceOf(prompt: AgentPrompt | null, id: string, pane: PaneRecord): PromptChoice {
  const choices = prompt?.choices ?? [];
  const found = choices.find((choice) => choice.id === id);
  if (!found) {
    if (prompt !== null && choices.length > 0) throw notOffered(prompt, `"${id}"`, pane);
    throw new CorralError(
      'invalid_params',
      `the prompt in pane ${pane.label()} offers no choices Corral can read (${prompt?.note ?? 'no prompt read'}); answer with keys or text`,
      { field: 'choice', choices: [], prompt },
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
 * The digits of an option number, when the prompt shows a choice its number picks. A prompt whose
 * choices are read but none is picked by that number is refused at once (issue 39: a digit typed into
 * Claude Code 2.1.332's unnumbered trust dialog did nothing, and the answer waited out its timeout); a
 * prompt with no choices read takes the digits as typed, as before prompts were read.
 */
function numberOf(prompt: AgentPrompt | null, choice: number, pane: PaneRecord): string {
  const digits = String(choice);
  if (prompt === null || prompt.choices.length === 0) return digits;
  if (!prompt.choices.some((c) => c.keys.length === 1 && c.keys[0] === digits)) throw notOffered(prompt, digits, pane);
  return digits;
}

/**
 * Answers a blocked agent (seed 003: answering a permission prompt is its own act, never plain input):
 * re-reads the screen, refuses an agent that is not blocked or whose prompt is not the one named
 * (`prompt_changed`, nothing typed), or a choice the prompt does not offer (`choice_not_offered`),
 * types the answer once per prompt and answer (a repeated request gets the first one's outcome), and
 * replies once the dialog it answered is gone: what the agent does then (docs/protocol.md, `agent.answer`).
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
  const outcome = awaitOutcome(agents, pane, prompt, request.timeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS, signal, send);
  if (key !== null) ledger.remember(key, outcome);
  return outcome;
}

/** What typing the answer is: the chosen choice's keys, digits, named keys, or text submitted with Enter. */
function sender(request: AnswerRequest, prompt: AgentPrompt | null, pane: PaneRecord): () => void {
  const { choice, keys, text } = request;
  if (text !== undefined) return () => void typePrompt(pane, text, true);
  const bytes = typeof choice === 'string' ? keyBytes(choiceOf(prompt, choice, pane).keys) : choice !== undefined ? numberOf(prompt, choice, pane) : keyBytes(keys!);
  return () => pane.write(bytes);
}

/**
 * Types the answer, then waits for the dialog it answered to go: the reply is `left` once the agent is
 * out of blocked, `next` once it shows another dialog a reader knows; a blocked state with neither (a
 * report that came after the answer, a screen no reader knows) is `pending` after `ANSWER_SETTLE_MS`.
 * A dialog still on the screen at the deadline is `timeout`. The answered prompt is never the reply's.
 */
function awaitOutcome(agents: AgentService, pane: PaneRecord, asked: AgentPrompt | null, timeoutMs: number, signal: AbortSignal, send: () => void): Promise<AnswerResult> {
  const started = Date.now();
  const answered = asked?.id ?? null;
  const agent = agents.of(pane);
  if (answered !== null) agent.answering(answered);
  const since = agent.screenLines();
  return new Promise((resolve, reject) => {
    let settling: NodeJS.Timeout | null = null;
    let done = false;
    const reply = (outcome: AnswerOutcome, state: AgentState, prompt?: AgentPrompt) => {
      finish();
      resolve({ outcome, state, elapsedMs: Date.now() - started, ...(prompt ? { prompt } : {}) });
    };
    /** The reply the agent gives now; null while the answered dialog is still drawn as it was answered. */
    const outcome = (settled: boolean): [AnswerOutcome, AgentState, AgentPrompt?] | null => {
      const current = agents.find(pane);
      const view = current?.view();
      if (current === undefined || view === undefined || view.state !== 'blocked' || pane.lifecycle !== 'running') return ['left', current ? agents.info(pane).state : 'unknown'];
      const prompt = current.prompt();
      // Another dialog a reader knows, read from the screen as it is now: the debounce may still hold an older read.
      const other = prompt !== null && prompt.id !== answered && prompt.source.startsWith('screen:') && current.stillShows(prompt.id, since) ? prompt : null;
      const shown = current.stillShows(answered, since);
      // The answered dialog with its cursor moved is not its next one yet: an answer's Down comes before its Enter.
      if (other !== null && (!shown || settled)) return ['next', 'blocked', other];
      if (settled) return ['pending', agents.info(pane).state];
      const moved = asked !== null && prompt?.id === answered && cursorOf(prompt) !== cursorOf(asked);
      if (settling === null && (!shown || other !== null || moved)) {
        settling = setTimeout(() => {
          if (answered !== null) agent.answerEnded(answered); // a cursor left moved is a new id, the next prompt
          reply(...outcome(true)!);
        }, Math.min(ANSWER_SETTLE_MS, Math.max(0, timeoutMs - (Date.now() - started))));
      }
      return null;
    };
    const check = () => {
      if (done) return;
      const found = outcome(false);
      if (found !== null) reply(...found);
    };
    const subscription = agents.onChange((change) => {
      if (change.pane !== pane) return;
      if (change.record.kind === 'released') return reply('left', change.info.state);
      if (change.extrasOnly && !change.promptChanged) return;
      check();
    });
    // The screen leaves the dialog before the debounce lets the state go: each redraw is looked at,
    // after the pane's own detection has read it (its listener came first).
    const output = pane.terminal.onOutput(() => setImmediate(check));
    const timer = setTimeout(() => {
      if (settling !== null) return; // the dialog went: the settle timer replies
      finish();
      reject(
        new CorralError('timeout', `the agent in pane ${pane.label()} still shows the prompt it was answered on ${timeoutMs} ms after the answer; read its screen`, {
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
      done = true;
      if (answered !== null) agent.answerEnded(answered);
      subscription.dispose();
      output.dispose();
      clearTimeout(timer);
      if (settling !== null) clearTimeout(settling);
      signal.removeEventListener('abort', aborted);
    }
    send();
  });
}

/** Which choice the cursor is on. */
function cursorOf(prompt: AgentPrompt): number {
  return prompt.choices.findIndex((choice) => choice.default);
}
