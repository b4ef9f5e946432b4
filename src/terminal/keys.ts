import { TerminalError } from './errors.ts';

const NAMED_KEYS: Readonly<Record<string, string>> = {
  enter: '\r',
  escape: '\x1b',
  esc: '\x1b',
  tab: '\t',
  btab: '\x1b[Z',
  bspace: '\x7f',
  backspace: '\x7f',
  space: ' ',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  home: '\x1b[H',
  end: '\x1b[F',
  pageup: '\x1b[5~',
  pagedown: '\x1b[6~',
  insert: '\x1b[2~',
  delete: '\x1b[3~',
  f1: '\x1bOP',
  f2: '\x1bOQ',
  f3: '\x1bOR',
  f4: '\x1bOS',
  f5: '\x1b[15~',
  f6: '\x1b[17~',
  f7: '\x1b[18~',
  f8: '\x1b[19~',
  f9: '\x1b[20~',
  f10: '\x1b[21~',
  f11: '\x1b[23~',
  f12: '\x1b[24~',
};

/**
 * Bytes for one key name: a named key, `C-<letter>` (control), `M-<key>` (alt: ESC prefix), or one
 * printable character, which types itself (`1`, `y`), so that `1 Enter` picks and confirms an option.
 */
function encodeKey(name: string): string | null {
  const named = NAMED_KEYS[name.toLowerCase()];
  if (named !== undefined) return named;
  if ([...name].length === 1 && /^[^\p{C}]$/u.test(name)) return name;
  const control = /^C-([a-zA-Z@[\\\]^_ ])$/.exec(name);
  if (control) {
    const ch = control[1] === ' ' ? '@' : control[1].toUpperCase();
    return String.fromCharCode(ch.charCodeAt(0) & 0x1f);
  }
  if (name.startsWith('M-') && name.length > 2) {
    const inner = name.length === 3 ? name[2] : encodeKey(name.slice(2));
    return inner === null ? null : '\x1b' + inner;
  }
  return null;
}

/** Whether `name` is a key name `encodeKeys` knows. */
export function isKeyName(name: string): boolean {
  return encodeKey(name) !== null;
}

/**
 * Translates key names (Enter, Escape, Tab, BSpace, Up, F1-F12, C-c, M-x, ...) to the bytes a
 * terminal sends in normal cursor mode. Throws `invalid_key` naming every unknown key.
 */
export function encodeKeys(names: string[]): string {
  const unknown: string[] = [];
  let out = '';
  for (const name of names) {
    const bytes = encodeKey(name);
    if (bytes === null) unknown.push(name);
    else out += bytes;
  }
  if (unknown.length > 0) {
    throw new TerminalError(
      'invalid_key',
      `unknown key name${unknown.length > 1 ? 's' : ''}: ${unknown.map((k) => JSON.stringify(k)).join(', ')}; ` +
        'use Enter, Escape, Tab, BSpace, Up, Down, Left, Right, Home, End, PageUp, PageDown, Delete, Space, F1-F12, C-a..C-z, M-<key> or one character',
    );
  }
  return out;
}
