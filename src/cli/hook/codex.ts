import { state, text, type HookAction, type Payload } from './action.ts';

/**
 * Codex's `notify` program (0.171.0): its JSON comes as the last argument, `type` names the event
 * (`agent-turn-complete`, `approval-requested`) and `thread-id` the session; payloads in
 * test/fixtures/hooks/codex/.
 */
export function mapCodex(payload: Payload): HookAction {
  const type = text(payload, 'type') ?? '';
  if (type === 'agent-turn-complete') return state('idle', payload, 'turn complete', 'thread-id');
  if (type === 'approval-requested') return state('blocked', payload, 'approval requested', 'thread-id');
  return { kind: 'ignore', why: `notify type ${type || '(none)'} is not a transition` };
}
