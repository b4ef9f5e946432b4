/**
 * Key hints as agents draw them (`Enter`, `esc`, `shift+Tab`, `ctrl+e`, `y`) to the key names the
 * daemon types (src/terminal/keys.ts: Enter, Escape, BTab, C-e, y); null for what names no key.
 */
export function keyOfHint(hint: string): string | null {
  const text = hint.trim().toLowerCase().replace(/\s*\+\s*/g, '+');
  switch (text) {
    case 'enter':
    case 'return':
    case '⏎':
    case '↵':
      return 'Enter';
    case 'esc':
    case 'escape':
      return 'Escape';
    case 'tab':
      return 'Tab';
    case 'shift+tab':
      return 'BTab';
  }
  const control = /^(?:ctrl|control|\^)[+-]?([a-z])$/.exec(text);
  if (control) return `C-${control[1]}`;
  if (/^[a-z0-9]$/.test(text)) return text;
  return null;
}
