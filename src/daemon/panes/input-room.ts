import { CorralError } from '../../protocol/errors.ts';
import type { PaneRecord } from './pane-record.ts';

/** Input written to a pane that its program has not read yet, at most; more is `pane_input_full`. */
export const MAX_PENDING_INPUT_BYTES = 4 << 20;

/**
 * Refuses `bytes` more input for a pane when they would not fit in MAX_PENDING_INPUT_BYTES, counted
 * wherever the pane's input waits: the prompts of its steering queue (`queued`, in this daemon), what
 * is on its way to the pty host and what the host has not written to the PTY yet (`pendingInput`).
 */
export function assertInputRoom(pane: PaneRecord, bytes: number, queued: number): void {
  const pending = pane.terminal.pendingInput + queued;
  if (pending + bytes <= MAX_PENDING_INPUT_BYTES) return;
  throw new CorralError('pane_input_full', `the pane has ${pending} bytes of input it has not read; at most ${MAX_PENDING_INPUT_BYTES} may wait`, {
    pending,
    limit: MAX_PENDING_INPUT_BYTES,
  });
}
