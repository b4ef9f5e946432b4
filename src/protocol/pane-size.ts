import { Type } from '@sinclair/typebox';

/** The one size rule for a pane, on the wire and in the terminal: columns and rows, inclusive. */
export const PANE_SIZE = {
  cols: { min: 2, max: 1000 },
  rows: { min: 2, max: 500 },
} as const;

export const paneCols = Type.Integer({ minimum: PANE_SIZE.cols.min, maximum: PANE_SIZE.cols.max });
export const paneRows = Type.Integer({ minimum: PANE_SIZE.rows.min, maximum: PANE_SIZE.rows.max });

export function isPaneSize(cols: number, rows: number): boolean {
  const within = (value: number, range: { min: number; max: number }) => Number.isInteger(value) && value >= range.min && value <= range.max;
  return within(cols, PANE_SIZE.cols) && within(rows, PANE_SIZE.rows);
}
