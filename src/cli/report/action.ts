/** What one hook event means for Corral: a state, the session it runs in, the session's end, or nothing. */
export type HookAction =
  | { kind: 'state'; state: 'working' | 'idle' | 'blocked'; session?: string; message?: string; ts?: number }
  | { kind: 'session'; session: string }
  | { kind: 'release'; session?: string }
  | { kind: 'ignore'; why: string };

/** A hook payload as parsed JSON: an object whose fields are read defensively. */
export type Payload = Record<string, unknown>;

export function text(payload: Payload, key: string): string | undefined {
  const value = payload[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The session id, trimmed to the protocol's 256 characters. */
export function sessionOf(payload: Payload, ...keys: string[]): { session?: string } {
  for (const key of keys) {
    const value = text(payload, key);
    if (value !== undefined) return { session: value.slice(0, 256) };
  }
  return {};
}

export function state(state: 'working' | 'idle' | 'blocked', payload: Payload, message: string, ...sessionKeys: string[]): HookAction {
  return { kind: 'state', state, message: message.slice(0, 200), ...sessionOf(payload, ...sessionKeys) };
}
