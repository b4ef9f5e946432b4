import { Type } from '@sinclair/typebox';

/**
 * A pane's id (`w1:p3`) or name, as every method that names a pane takes it. Where a method or
 * command takes several panes, a target may also be a group (see `isGroupTarget`).
 */
export const paneTarget = Type.String({ minLength: 1, maxLength: 128 });

/** `*` any run of characters, `?` one character; everything else literal; the whole text must match. */
export function namePattern(pattern: string): RegExp {
  const body = [...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.+()[\]{}|/-]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, 's');
}

/**
 * A group target names any number of panes: `@W` every pane of workspace W (`@` plus a pattern:
 * `@build*`), or a pattern with `*` or `?` over pane names and ids (`test-*`, `w2:*`). Names and ids
 * never contain `@`, `*` or `?`, so a group is never mistaken for one pane.
 */
export function isGroupTarget(target: string): boolean {
  return target.startsWith('@') || /[*?]/.test(target);
}

/** Whether a pane belongs to a group target. */
export function inGroup(target: string, pane: { id: string; name: string | null; workspace: string }): boolean {
  if (target.startsWith('@')) return namePattern(target.slice(1)).test(pane.workspace);
  const pattern = namePattern(target);
  return pattern.test(pane.id) || (pane.name !== null && pattern.test(pane.name));
}
