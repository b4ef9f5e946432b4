import { state, text, type HookAction, type Payload } from './action.ts';

/**
 * The events Corral's OpenCode plugin forwards (`{type, properties}` of OpenCode's event bus):
 * a busy session works, an idle one is idle, a permission asked waits for the user.
 */
export function mapOpencode(payload: Payload): HookAction {
  const type = text(payload, 'type') ?? '';
  const properties = (typeof payload.properties === 'object' && payload.properties !== null ? payload.properties : {}) as Payload;
  const say = (s: 'working' | 'idle' | 'blocked', message: string) => state(s, properties, message, 'sessionID');
  if (type === 'session.idle') return say('idle', 'session idle');
  if (type === 'session.status') {
    const status = (properties.status as Payload | undefined)?.type;
    if (status === 'busy' || status === 'retry') return say('working', `session ${String(status)}`);
    if (status === 'idle') return say('idle', 'session idle');
  }
  if (type === 'permission.updated' || type === 'permission.asked') return say('blocked', 'permission asked');
  if (type === 'question.asked') return say('blocked', 'question asked');
  if (type === 'permission.replied' || type === 'question.replied' || type === 'question.rejected') return say('working', 'answered');
  return { kind: 'ignore', why: `event ${type || '(none)'} is not a transition` };
}
