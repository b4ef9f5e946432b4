import { str } from './validate.ts';

/** A pane's id (`w1:p3`) or name, as every method that names a pane takes it. */
export const paneTarget = str({ min: 1, max: 128 });
