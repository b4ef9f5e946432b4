import { defineMethod, defineNotification } from '../method.ts';
import { Type, type Static } from '@sinclair/typebox';
import { Literals, Nullable, STRICT } from '../schema.ts';
import { paneTarget } from '../pane-target.ts';
import { paneCols, paneRows } from '../pane-size.ts';

const target = paneTarget;

export const PaneAttachResult = Type.Object({
  id: Type.String(),
  name: Nullable(Type.String()),
  cols: Type.Number(), // the pane's size after the optional resize
  rows: Type.Number(),
});
export type PaneAttachResult = Static<typeof PaneAttachResult>;

export const PANE_ATTACH = defineMethod({
  name: 'pane.attach',
  summary:
    "Mirror the pane on this connection: pane.output carries a full redraw, then the raw output, until pane.detach, exit or disconnect.",
  params: Type.Object(
    {
      target,
      // The attaching terminal's size; the pane takes it (the latest resize of any client wins).
      cols: Type.Optional(paneCols),
      rows: Type.Optional(paneRows),
    },
    STRICT,
  ),
  result: PaneAttachResult,
  errors: ['pane_not_found', 'pane_exited', 'pane_external'],
});

export const PANE_DETACH = defineMethod({
  name: 'pane.detach',
  summary: 'Stop mirroring the pane on this connection; the pane keeps running.',
  params: Type.Object({ target }, STRICT),
  result: Type.Object({ detached: Type.Boolean() }),
  errors: ['pane_not_found'],
});

/** Why the daemon ended an attachment by itself. */
export const DETACH_REASONS = ['exited', 'removed'] as const;
export type DetachReason = (typeof DETACH_REASONS)[number];

/**
 * Bytes for the attached terminal, in stream order: UTF-8 text with escape sequences. `redraw`
 * marks a full repaint of the screen (on attach, after the client fell behind, or when the program
 * switched screens); the rest is the program's output as it wrote it.
 */
export const PANE_OUTPUT = defineNotification({
  name: 'pane.output',
  summary: "A chunk of an attached pane's terminal output, or a full redraw.",
  params: Type.Object({ id: Type.String(), data: Type.String(), redraw: Type.Boolean() }),
});

export const PANE_DETACHED = defineNotification({
  name: 'pane.detached',
  summary: 'The daemon ended an attachment: the pane exited or was removed.',
  params: Type.Object({ id: Type.String(), reason: Literals(DETACH_REASONS), exitCode: Nullable(Type.Number()), signal: Nullable(Type.Number()) }),
});
