/** What commands print on stdout: JSON for scripts, aligned text for people. */

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Columns padded to their widest cell; the last column is never padded. */
export function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  process.stdout.write(`${[line(headers), ...rows.map(line)].join('\n')}\n`);
}

/** `key: value` lines, keys aligned. */
export function printFields(fields: [string, string][]): void {
  const width = Math.max(...fields.map(([key]) => key.length));
  process.stdout.write(`${fields.map(([key, value]) => `${`${key}:`.padEnd(width + 2)}${value}`).join('\n')}\n`);
}

export function printText(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}
