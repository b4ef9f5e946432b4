import { defineMethod, defineNotification, returns } from '../method.ts';
import { optional, params } from '../validate.ts';
import { paneTarget } from '../pane-target.ts';
import { paneCols, paneRows } from '../pane-size.ts';

const target = paneTarget;

export interface PaneAttachResult {
  id: string;
  name: string | null;
  cols: number; // the pane's size after the optional resize
  rows: number;
}

export const PANE_ATTACH = defineMethod({
  name: 'pane.attach',
  summary:
    "Mirror the pane on this connection: pane.output carries a full redraw, then the raw output, until pane.detach, exit or disconnect.",
  params: params({
    target,
    // The attaching terminal's size; the pane takes it (the latest resize of any client wins).
    cols: optional(paneCols),
    rows: optional(paneRows),
  }),
  result: returns<PaneAttachResult>(),
  errors: ['pane_not_found', 'pane_exited', 'pane_external'],
});

export const PANE_DETACH = defineMethod({
  name: 'pane.detach',
  summary: 'Stop mirroring the pane on this connection; the pane keeps running.',
  params: params({ target }),
  result: returns<{ detached: boolean }>(),
  errors: ['pane_not_found'],
});

/** Why the daemon ended an attachment by itself. */
export type DetachReason = 'exited' | 'removed';

/**
 * Bytes for the attached terminal, in stream order: UTF-8 text with escape sequences. `redraw`
 * marks a full repaint of the screen (on attach, after the client fell behind, or when the program
 * switched screens); the rest is the program's output as it wrote it.
 */
export const PANE_OUTPUT = defineNotification({
  name: 'pane.output',
  summary: "A chunk of an attached pane's terminal output, or a full redraw.",
  params: returns<{ id: string; data: string; redraw: boolean }>(),
});

export const PANE_DETACHED = defineNotification({
  name: 'pane.detached',
  summary: 'The daemon ended an attachment: the pane exited or was removed.',
  params: returns<{ id: string; reason: DetachReason; exitCode: number | null; signal: number | null }>(),
});
