import { int } from './validate.ts';

/** The one size rule for a pane, on the wire and in the terminal: columns and rows, inclusive. */
export const PANE_SIZE = {
  cols: { min: 2, max: 1000 },
  rows: { min: 2, max: 500 },
} as const;

export const paneCols = int(PANE_SIZE.cols);
export const paneRows = int(PANE_SIZE.rows);

export function isPaneSize(cols: number, rows: number): boolean {
  const within = (value: number, range: { min: number; max: number }) => Number.isInteger(value) && value >= range.min && value <= range.max;
  return within(cols, PANE_SIZE.cols) && within(rows, PANE_SIZE.rows);
}
