import { sessionOf, state, text, type HookAction, type Payload } from './action.ts';

/**
 * Gemini CLI's hook events (0.61.0, docs/hooks/reference.md in its package): stdin JSON with
 * `hook_event_name`, `session_id` and an ISO `timestamp`; payloads in test/fixtures/hooks/gemini/.
 */
export function mapGemini(payload: Payload): HookAction {
  const event = text(payload, 'hook_event_name') ?? '';
  const say = (s: 'working' | 'idle' | 'blocked', message: string): HookAction => withTime(state(s, payload, message, 'session_id'), payload);
  switch (event) {
    case 'SessionStart':
      return say('idle', `session start (${text(payload, 'source') ?? 'startup'})`);
    case 'BeforeAgent':
      return say('working', 'prompt submitted');
    case 'BeforeTool':
    case 'AfterTool':
      return say('working', `tool: ${text(payload, 'tool_name') ?? '?'}`);
    case 'Notification':
      return text(payload, 'notification_type') === 'ToolPermission'
        ? say('blocked', `permission: ${text(payload, 'message') ?? ''}`)
        : { kind: 'ignore', why: `notification ${text(payload, 'notification_type') ?? '?'} is not a transition` };
    case 'AfterAgent':
      return say('idle', 'turn ended');
    case 'SessionEnd':
      return { kind: 'release', ...sessionOf(payload, 'session_id') };
    default:
      return { kind: 'ignore', why: `event ${event || '(none)'} says nothing of the state` };
  }
}

/** Gemini stamps each payload: the CLI's own clock orders its events better than our start time. */
function withTime(action: HookAction, payload: Payload): HookAction {
  const stamp = Date.parse(text(payload, 'timestamp') ?? '');
  return action.kind === 'state' && Number.isFinite(stamp) ? { ...action, ts: stamp } : action;
}
