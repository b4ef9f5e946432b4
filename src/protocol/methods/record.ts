import { defineMethod, defineNotification, returns } from '../method.ts';
import { Type } from '@sinclair/typebox';
import { STRICT } from '../schema.ts';
import { paneTarget } from '../pane-target.ts';

export interface PaneRecordResult {
  id: string;
  name: string | null;
  cols: number;
  rows: number;
  /** Wall-clock ms the recording started at: every `pane.recorded` `at` is on the same clock. */
  startedAt: number;
}

export const PANE_RECORD = defineMethod({
  name: 'pane.record',
  summary:
    "Stream the pane's output (and, with input, what is typed into it) on this connection as pane.recorded, starting with its current screen (sent before this reply); never resizes it or marks it seen.",
  params: Type.Object({ target: paneTarget, input: Type.Optional(Type.Boolean()) }, STRICT),
  result: returns<PaneRecordResult>(),
  errors: ['pane_not_found', 'pane_exited', 'pane_external'],
});

/** One recorded chunk: `o` output as the program wrote it (the first is a redraw of the screen), `i` input. */
export const PANE_RECORDED = defineNotification({
  name: 'pane.recorded',
  summary: 'A chunk of a recorded pane: output (o) or input (i), with the wall-clock ms it happened at.',
  params: returns<{ id: string; code: 'o' | 'i'; data: string; at: number }>(),
});

/** Why a recording ended: the pane exited or was removed, or the recorder fell behind its output. */
export type RecordEndReason = 'exited' | 'removed' | 'behind';

export const PANE_RECORD_ENDED = defineNotification({
  name: 'pane.recordEnded',
  summary: 'The daemon ended a recording: the pane exited or was removed, or the recorder fell behind.',
  params: returns<{ id: string; reason: RecordEndReason; exitCode: number | null; signal: number | null }>(),
});

/** Unsent bytes over which a recorder has fallen behind: its recording ends rather than lose output silently. */
export const RECORDER_BEHIND_BYTES = 4 << 20;
