/**
 * Glyph classes: the frame families agents animate spinners with, declared once for every manifest.
 * A pattern names one as `{name}`: a class of its own outside brackets (`^{braille} `), its members
 * inside them (`[^{braille}\s]`). A new frame family is one line here.
 */
export const GLYPH_FAMILIES: Readonly<Record<string, string>> = {
  braille: '⠀-⣿', // U+2800..U+28FF: Claude Code and Codex titles, Gemini, Qwen, Grok, Cursor, Kimi status rows
  half_circle: '◐◓◑◒', // Goose
  quarter_circle: '◴◷◶◵',
  star: '·✢✳✶✻✽*', // Claude Code's status row (2.1.197: '· Finagling…', '✽ Finagling…')
  bullet: '•◦', // Codex's live status row alternates • and ◦
  dot: '∙⋅●', // filled dots some spinners pulse with
  hexagon: '⬡⬢', // Cursor
  moon: '🌑🌒🌓🌔🌕🌖🌗🌘',
};

/** Unions of families, for rules that accept any frame. */
export const GLYPH_UNIONS: Readonly<Record<string, readonly string[]>> = {
  spinner: ['braille', 'half_circle', 'quarter_circle', 'star', 'bullet', 'dot', 'hexagon', 'moon'],
  // Frames agents spin in the OSC title. Stars and dots stay out: Claude Code's title is `✳` at idle.
  title_spinner: ['braille', 'half_circle', 'quarter_circle'],
};

export function glyphClassNames(): string[] {
  return [...Object.keys(GLYPH_FAMILIES), ...Object.keys(GLYPH_UNIONS)];
}

function members(name: string): string | null {
  if (Object.hasOwn(GLYPH_FAMILIES, name)) return GLYPH_FAMILIES[name]!;
  const union = Object.hasOwn(GLYPH_UNIONS, name) ? GLYPH_UNIONS[name]! : null;
  return union ? union.map((family) => GLYPH_FAMILIES[family]!).join('') : null;
}

/**
 * Replaces each `{name}` of a pattern by its glyph class; escapes (`\{`) stay literal. Returns the
 * expanded source, or an error naming the unknown class and the known ones. In flag `u` a bare `{`
 * that is no quantifier does not compile, so `{name}` cannot mean anything else.
 */
export function expandGlyphClasses(pattern: string): { source: string } | { error: string } {
  if (!pattern.includes('{')) return { source: pattern };
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') {
      // `\p{L}` and `\P{...}` are Unicode properties: their braces are no glyph class.
      const property = /^\\[pP]\{[^}]*\}/.exec(pattern.slice(i))?.[0];
      const escape = property ?? pattern.slice(i, i + 2);
      out += escape;
      i += escape.length - 1;
      continue;
    }
    if (char === '[' && !inClass) inClass = true;
    else if (char === ']' && inClass) inClass = false;
    else if (char === '{') {
      const name = /^\{([a-z_]+)\}/.exec(pattern.slice(i))?.[1];
      if (name !== undefined) {
        const glyphs = members(name);
        if (glyphs === null) return { error: `unknown glyph class {${name}}; known: ${glyphClassNames().map((n) => `{${n}}`).join(', ')}` };
        out += inClass ? glyphs : `[${glyphs}]`;
        i += name.length + 1;
        continue;
      }
    }
    out += char;
  }
  return { source: out };
}
