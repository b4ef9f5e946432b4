import type { SourcePosition } from './errors.ts';

/** A path into the parsed manifest: table keys and array indexes (`['rules', 2, 'any', 0, 'contans']`). */
export type KeyPath = ReadonlyArray<string | number>;

const HEADER = /^[ \t]*\[/;

/**
 * Finds where a key was written in the TOML source, since the parser keeps no positions.
 * Looks inside the section the path points at (the n-th `[[rules]]`, `[identity]`, or the top);
 * returns the section start when the key itself cannot be found.
 */
export function findKeyPosition(file: string, source: string, path: KeyPath): SourcePosition {
  const lines = source.split('\n');
  const [first, second] = path;
  let start = 0;
  if (typeof first === 'string' && path.length > 1) {
    const header = typeof second === 'number' ? new RegExp(`^[ \\t]*\\[\\[[ \\t]*"?${escape(first)}"?[ \\t]*\\]\\]`) : new RegExp(`^[ \\t]*\\[[ \\t]*"?${escape(first)}"?[ \\t]*\\]`);
    let seen = -1;
    const wanted = typeof second === 'number' ? second : 0;
    for (let i = 0; i < lines.length; i++) {
      if (header.test(lines[i]!) && ++seen === wanted) {
        start = i;
        break;
      }
    }
  }
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i++) {
    if (HEADER.test(lines[i]!)) {
      end = i;
      break;
    }
  }
  const key = [...path].reverse().find((segment): segment is string => typeof segment === 'string') ?? '';
  const assignment = new RegExp(`(^|[\\s{,.])("?)${escape(key)}\\2[ \\t]*(=|\\.)`);
  const tableHeader = new RegExp(`^[ \\t]*\\[\\[?[ \\t]*"?${escape(key)}"?`);
  if (path.length === 1) {
    // A top-level key is either an assignment before the first header or a table header of its own.
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (HEADER.test(line)) {
        if (tableHeader.test(line)) return { file, line: i + 1, column: line.indexOf(key) + 1 };
        continue;
      }
      const match = i < end ? assignment.exec(line) : null;
      if (match) return { file, line: i + 1, column: match.index + match[1]!.length + 1 };
    }
  }
  for (let i = start; i < end; i++) {
    const match = assignment.exec(lines[i]!);
    if (match) return { file, line: i + 1, column: match.index + match[1]!.length + 1 };
  }
  return { file, line: start + 1, column: 1 };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
