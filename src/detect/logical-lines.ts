/**
 * Joins rows into logical lines where the emulator marked a soft wrap (xterm's isWrapped): row i
 * continues row i-1 when `wrapped[rows[i]]` is true and the two rows are adjacent on screen. Rows a
 * region took from elsewhere (a title, stripped box sides) carry -1 and are never joined.
 */
export function joinWrapped(lines: readonly string[], rows: readonly number[], wrapped: readonly boolean[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const row = rows[i] ?? -1;
    const continues = i > 0 && row > 0 && rows[i - 1] === row - 1 && wrapped[row] === true;
    if (continues) out[out.length - 1] += lines[i]!;
    else out.push(lines[i]!);
  }
  return out;
}
