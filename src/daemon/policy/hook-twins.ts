import type { PolicyHookAnswer } from '../../protocol/methods/policy-hook.ts';
import { HOOK_DIALOG_WINDOW_MS } from './hook-decisions.ts';

/**
 * How long a request's answer stays its own for a second copy of the hook, at most. An agent starts
 * every hook of an event at once, so a copy asks within its own start-up of the first (and within its
 * timeout, 5 s in the entries Corral writes: src/integration/hook-entries.ts); the window is as long as
 * the one a hook's decision waits for its dialog in (hook-decisions.ts), so a loaded machine never has
 * one request decided twice. The agent's next report or its turn's end closes it far sooner.
 */
export const HOOK_TWIN_WINDOW_MS = HOOK_DIALOG_WINDOW_MS;

/** The tool request a hook asks about, as the twins compare it. */
export interface TwinRequest {
  agent: string;
  tool: string;
  command?: string;
  path?: string;
}

interface Asked {
  key: string;
  at: number;
  /** The newest report of the pane that said its agent went on (not blocked) when the request was decided. */
  mark: number;
  answer: PolicyHookAnswer;
}

/**
 * The request each pane's hook last had decided, while a second copy of the same hook may still ask it
 * (Corral's hooks per launch and in the user's own settings: the agent runs both; docs/policy.md). That
 * copy gets the first one's answer, and nothing is decided, logged or counted by the loop guard again.
 * The request's life ends with the window, with a report saying the agent went on (its tool ran, a new
 * tool call, its turn ended), with the turn ending on screen, or with a changed policy: the same request
 * asked after that is a new one.
 */
export class HookTwins {
  private readonly asked = new Map<string, Asked>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The answer the same request got within its life, or null: then it is the pane's own to decide. */
  twin(paneId: string, request: TwinRequest, mark: number): PolicyHookAnswer | null {
    const asked = this.asked.get(paneId);
    if (asked === undefined || asked.key !== keyOf(request) || mark > asked.mark || this.now() - asked.at >= HOOK_TWIN_WINDOW_MS) return null;
    return asked.answer;
  }

  remember(paneId: string, request: TwinRequest, mark: number, answer: PolicyHookAnswer): void {
    this.asked.set(paneId, { key: keyOf(request), at: this.now(), mark, answer });
  }

  /** The pane's agent went on: its last request is over. */
  forget(paneId: string): void {
    this.asked.delete(paneId);
  }

  /** The policy changed (a reload, a pause): every answer given is of the policy before. */
  clear(): void {
    this.asked.clear();
  }
}

function keyOf(request: TwinRequest): string {
  return JSON.stringify([request.agent, request.tool, request.command ?? null, request.path ?? null]);
}
