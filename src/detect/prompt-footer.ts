import { keyOfHint } from './prompt-keys.ts';

/** One key hint of a footer: `Esc to cancel` is `{key: 'Escape', label: 'cancel'}`. */
export interface FooterHint {
  key: string;
  label: string;
}

/** Footers separate hints with a middle dot, a bullet, a bar, or a run of spaces. */
const SEPARATOR = /\s+[·•|]\s+|\s{2,}/;
const KEY_WORD = String.raw`(?:shift\s*\+\s*tab|ctrl[+-][a-z]|enter|return|esc|escape|tab|[a-z])`;
const KEY_FIRST = new RegExp(String.raw`^(${KEY_WORD}):?(?:\s+to)?\s+(.+)$`, 'i');
const KEY_LAST = new RegExp(String.raw`^(.+?)\s+\((${KEY_WORD})\)$`, 'i');

/**
 * The key hints of a footer line (`Enter to confirm · Esc to cancel`, `enter accept · ctrl+d
 * decline`, `Approve (y)`); segments naming no key (`↑/↓ to navigate`) are left out.
 */
export function footerHints(line: string): FooterHint[] {
  const hints: FooterHint[] = [];
  for (const raw of line.trim().split(SEPARATOR)) {
    const segment = raw.trim();
    if (segment === '') continue;
    const first = KEY_FIRST.exec(segment);
    const last = first ? null : KEY_LAST.exec(segment);
    const keyText = first ? first[1]! : last?.[2];
    const label = first ? first[2]! : last?.[1];
    if (keyText === undefined || label === undefined) continue;
    // A lone letter as the first word is a word of the label ("a new file"), unless it is a key in parentheses.
    if (first && /^[a-z]$/i.test(keyText)) continue;
    const key = keyOfHint(keyText);
    if (key !== null) hints.push({ key, label: label.trim() });
  }
  return hints;
}
