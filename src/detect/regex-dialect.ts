/**
 * Manifest patterns are RE2 syntax (linear-time matching: no backreferences, no lookaround), with
 * the escapes and classes manifests were first written with keeping their JavaScript meaning:
 * `\uXXXX` and `\u{X}` are code points, `\s`/`\S` are JavaScript's Unicode whitespace (a terminal's
 * no-break space included), and `.` stops at every line terminator. This rewrites a pattern (glyph
 * classes already expanded) into plain RE2 syntax, or says why it has no RE2 meaning.
 */

/** JavaScript's `\s`: WhiteSpace and LineTerminator of ECMA-262, as code point ranges. */
const JS_WHITESPACE: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

const MAX_CODE_POINT = 0x10ffff;

function complement(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

const codePoint = (cp: number) => `\\x{${cp.toString(16)}}`;
const classBody = (ranges: readonly (readonly [number, number])[]) =>
  ranges.map(([from, to]) => (from === to ? codePoint(from) : `${codePoint(from)}-${codePoint(to)}`)).join('');

const SPACE_BODY = classBody(JS_WHITESPACE);
const NON_SPACE_BODY = classBody(complement(JS_WHITESPACE));
/** JavaScript's `.` without flag `s`: anything but \n, \r, U+2028 and U+2029. */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

const LOOKAROUND = /^\(\?<?[=!]/;

/**
 * The RE2 source for a manifest pattern, or the reason it has none. `anchored`: every match starts at
 * the text's start (a leading `^` and no top-level `|`), so a search can stop at the first mismatch.
 */
export function toRe2Syntax(pattern: string): { source: string; anchored: boolean } | { error: string } {
  let out = '';
  let inClass = false;
  let depth = 0;
  let topLevelAlternation = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return { error: 'a trailing backslash escapes nothing' };
      if (next === 's' || next === 'S') {
        const body = next === 's' ? SPACE_BODY : NON_SPACE_BODY;
        // Whitespace has no case, so `\S` is closed under case folding: `(?-i:` spares the parser
        // folding its wide ranges under `(?i)` (10 ms a pattern). Inside a class it cannot be spared.
        out += inClass ? body : next === 's' ? `[${body}]` : `(?-i:[${body}])`;
        i++;
        continue;
      }
      if (next === 'u') {
        const escape = unicodeEscape(pattern, i);
        if (escape === null) return { error: `\\u must be followed by 4 hex digits or {hex} (at character ${i + 1})` };
        out += codePoint(escape.codePoint);
        i += escape.length - 1;
        continue;
      }
      if (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<')) {
        return { error: 'backreferences are not supported: manifest patterns run in linear time (RE2 syntax); match the text itself, or split the check into several matchers' };
      }
      out += char + next;
      i++;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      out += char;
      continue;
    }
    if (char === '[') {
      // `[]` and `[^]` mean "nothing" and "anything" in JavaScript but open a class holding `]` in RE2.
      const negated = pattern[i + 1] === '^';
      if (pattern[i + (negated ? 2 : 1)] === ']') return { error: `an empty class ${negated ? '[^]' : '[]'} is not supported; write [\\s\\S] for any character` };
      inClass = true;
      out += negated ? '[^' : '[';
      if (negated) i++;
      continue;
    }
    if (char === '(' && LOOKAROUND.test(pattern.slice(i, i + 4))) {
      return { error: 'lookahead and lookbehind are not supported: manifest patterns run in linear time (RE2 syntax); use a `not` gate for "not followed by"' };
    }
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) topLevelAlternation = true;
    out += char === '.' ? DOT : char;
  }
  return { source: out, anchored: pattern.startsWith('^') && !topLevelAlternation };
}

/** `\uXXXX` (a surrogate pair of two such escapes is one code point) or `\u{X..}` at `at`. */
function unicodeEscape(pattern: string, at: number): { codePoint: number; length: number } | null {
  const braced = /^\\u\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(at));
  if (braced) {
    const value = Number.parseInt(braced[1]!, 16);
    return value <= MAX_CODE_POINT ? { codePoint: value, length: braced[0].length } : null;
  }
  const four = /^\\u([0-9a-fA-F]{4})(?:\\u([dD][c-fC-F][0-9a-fA-F]{2}))?/.exec(pattern.slice(at));
  if (!four) return null;
  const high = Number.parseInt(four[1]!, 16);
  if (four[2] !== undefined && high >= 0xd800 && high <= 0xdbff) {
    const low = Number.parseInt(four[2], 16);
    return { codePoint: 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00), length: 12 };
  }
  return { codePoint: high, length: 6 };
}
