import { UsageError } from '../print-error.ts';

/** Ctrl-\ (0x1c): rarely needed by agents, and in raw mode it never raises SIGQUIT. */
export const DEFAULT_DETACH_KEY = 'C-\\';

/**
 * The byte a control-key spec stands for: `C-\`, `C-]`, `C-a`, `^A` or `ctrl-q`. Only control keys
 * are accepted, so that detaching never eats text the agent should have had.
 */
export function parseDetachKey(spec: string): string {
  const match = /^(?:C-|\^|ctrl-)(.)$/i.exec(spec);
  const key = match?.[1];
  if (key === undefined) {
    throw new UsageError(`--detach-key "${spec}" is not a control key; write C-\\, C-], C-a ... C-z or ^A`);
  }
  const code = key.toUpperCase().charCodeAt(0);
  if (code < 0x40 || code > 0x5f || key === '@' || key === '[' || key === 'M' || key === 'm' || key === 'I' || key === 'i') {
    throw new UsageError(`--detach-key "${spec}" would take Escape, Tab, Enter or NUL; pick another control key, such as C-\\ or C-]`);
  }
  return String.fromCharCode(code & 0x1f);
}

/** Splits typed input at the detach key: what goes to the pane first, and whether to detach after it. */
export function splitAtDetachKey(input: string, key: string): { forward: string; detach: boolean } {
  const at = input.indexOf(key);
  return at === -1 ? { forward: input, detach: false } : { forward: input.slice(0, at), detach: true };
}
