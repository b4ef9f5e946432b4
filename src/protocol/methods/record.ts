import { defineMethod, defineNotification } from '../method.ts';
import { Type, type Static } from '@sinclair/typebox';
import { Literals, Nullable, STRICT } from '../schema.ts';
import { paneTarget } from '../pane-target.ts';

export const PaneRecordResult = Type.Object({
  id: Type.String(),
  name: Nullable(Type.String()),
  cols: Type.Number(),
  rows: Type.Number(),
  startedAt: Type.Number({ description: 'Wall-clock ms the recording started at: every `pane.recorded` `at` is on the same clock.' }),
});
export type PaneRecordResult = Static<typeof PaneRecordResult>;

export const PANE_RECORD = defineMethod({
  name: 'pane.record',
  summary:
    "Stream the pane's output (and, with input, what is typed into it) on this connection as pane.recorded, starting with its current screen (sent before this reply); never resizes it or marks it seen.",
  params: Type.Object({ target: paneTarget, input: Type.Optional(Type.Boolean()) }, STRICT),
  result: PaneRecordResult,
  errors: ['pane_not_found', 'pane_exited', 'pane_external'],
});

/** One recorded chunk: `o` output as the program wrote it (the first is a redraw of the screen), `i` input. */
export const PANE_RECORDED = defineNotification({
  name: 'pane.recorded',
  summary: 'A chunk of a recorded pane: output (o) or input (i), with the wall-clock ms it happened at.',
  params: Type.Object({ id: Type.String(), code: Literals(['o', 'i']), data: Type.String(), at: Type.Number() }),
});

/** Why a recording ended: the pane exited or was removed, or the recorder fell behind its output. */
export const RECORD_END_REASONS = ['exited', 'removed', 'behind'] as const;
export type RecordEndReason = (typeof RECORD_END_REASONS)[number];

export const PANE_RECORD_ENDED = defineNotification({
  name: 'pane.recordEnded',
  summary: 'The daemon ended a recording: the pane exited or was removed, or the recorder fell behind.',
  params: Type.Object({ id: Type.String(), reason: Literals(RECORD_END_REASONS), exitCode: Nullable(Type.Number()), signal: Nullable(Type.Number()) }),
});

/** Unsent bytes over which a recorder has fallen behind: its recording ends rather than lose output silently. */
export const RECORDER_BEHIND_BYTES = 4 << 20;
