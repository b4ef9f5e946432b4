import { state, text, type HookAction, type Payload } from './action.ts';

/**
 * Codex's `notify` program (0.171.0): its JSON comes as the last argument, `type` names the event
 * (`agent-turn-complete`, `approval-requested`) and `thread-id` the session; payloads in
 * test/fixtures/hooks/codex/.
 */
export function mapCodex(payload: Payload): HookAction {
  const type = text(payload, 'type') ?? '';
  if (type === 'agent-turn-complete' && isTitleThread(payload)) {
    return { kind: 'ignore', why: 'the side thread that names the task ended, not the turn' };
  }
  if (type === 'agent-turn-complete') return state('idle', payload, 'turn complete', 'thread-id');
  if (type === 'approval-requested') return state('blocked', payload, 'approval requested', 'thread-id');
  return { kind: 'ignore', why: `notify type ${type || '(none)'} is not a transition` };
}

/**
 * Codex runs a side thread of its own that writes the task's title while the first turn works, and
 * notifies when it ends (0.171.0, captured: another `thread-id`, its own prompt as the only input):
 * that is not the user's turn ending.
 */
function isTitleThread(payload: Payload): boolean {
  const inputs = payload['input-messages'];
  return Array.isArray(inputs) && inputs.length === 1 && typeof inputs[0] === 'string' && inputs[0].startsWith('Generate a concise, single-line task title');
}
