import { sessionOf, state, text, type HookAction, type Payload } from './action.ts';

/**
 * Claude Code's hook events (2.1.197: the `hooks` keys of its settings; stdin JSON with
 * `hook_event_name` and `session_id`; payloads in test/fixtures/hooks/claude/). Qwen Code 0.15
 * uses the same names and fields.
 */
export function mapClaude(payload: Payload): HookAction {
  const event = text(payload, 'hook_event_name') ?? '';
  const tool = text(payload, 'tool_name');
  const say = (s: 'working' | 'idle' | 'blocked', message: string) => state(s, payload, message, 'session_id');
  switch (event) {
    case 'SessionStart':
      return say('idle', `session start (${text(payload, 'source') ?? 'startup'})`);
    case 'UserPromptSubmit':
      return say('working', 'prompt submitted');
    case 'PreToolUse':
      // A question to the user is a tool whose form waits for an answer.
      return tool === 'AskUserQuestion' ? say('blocked', `question: ${askedQuestion(payload) ?? 'AskUserQuestion'}`) : say('working', `tool: ${tool ?? '?'}`);
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return say('working', `tool done: ${tool ?? '?'}`);
    case 'PermissionRequest':
      // `<kind>: <text>`: the daemon shows it as the prompt's kind and text (src/detect/prompt-hint.ts).
      return say('blocked', `permission: ${tool ?? '?'}${toolSubject(payload)}`);
    case 'Notification':
      return notification(payload);
    case 'Stop':
      return say('idle', 'turn ended');
    case 'SessionEnd':
      return { kind: 'release', ...sessionOf(payload, 'session_id') };
    default:
      return { kind: 'ignore', why: `event ${event || '(none)'} says nothing of the state` };
  }
}

/**
 * `permission_prompt` and `elicitation_dialog` wait for the user. `idle_prompt` fires about 60 s after
 * a turn ended, when the user has not answered: the agent was idle long before, so it is not news.
 */
function notification(payload: Payload): HookAction {
  const type = text(payload, 'notification_type');
  const message = text(payload, 'message') ?? '';
  if (type === 'permission_prompt' || type === 'elicitation_dialog') return state('blocked', payload, `notification: ${type}`, 'session_id');
  if (type === undefined && /permission/i.test(message)) return state('blocked', payload, `notification: ${message}`, 'session_id');
  return { kind: 'ignore', why: `notification ${type ?? message.slice(0, 40)} is not a transition` };
}

/** What a tool acts on, from its input: the command, file, URL or pattern, as `: <it>`; empty when none is a string. */
function toolSubject(payload: Payload): string {
  const input = payload['tool_input'];
  if (typeof input !== 'object' || input === null) return '';
  for (const key of ['command', 'file_path', 'path', 'url', 'pattern', 'query']) {
    const value = (input as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.trim() !== '') return `: ${value.replace(/\s+/g, ' ').trim()}`;
  }
  return '';
}

/** The first question of an AskUserQuestion call (`tool_input.questions[0].question`). */
function askedQuestion(payload: Payload): string | undefined {
  const input = payload['tool_input'] as { questions?: unknown } | undefined;
  const first = Array.isArray(input?.questions) ? (input!.questions[0] as { question?: unknown } | undefined) : undefined;
  return typeof first?.question === 'string' && first.question.trim() !== '' ? first.question.trim() : undefined;
}
