import { CorralError } from '../../protocol/errors.ts';
import { isDescendant } from '../../terminal/procfs.ts';
import type { PaneRecord } from '../panes/pane-record.ts';

/**
 * Metadata is bound to its pane as reports are (src/arbiter/binding.ts): the reporter is the process on
 * the other end of the socket as the kernel says (SO_PEERCRED), and it must run in the pane's own
 * process tree as this user. Any other process could otherwise fill every pane's metadata.
 */
export function assertPaneReporter(pane: PaneRecord, peer: { pid: number; uid: number } | null): void {
  if (peer === null) throw new CorralError('not_in_pane', 'the reporting process could not be identified from the socket; report from a process in the pane');
  if (peer.uid !== process.getuid?.()) throw new CorralError('not_in_pane', `the reporter runs as uid ${peer.uid}, not as the daemon's user`, { pid: peer.pid });
  if (!isDescendant(peer.pid, pane.terminal.pid)) {
    throw new CorralError('not_in_pane', `pid ${peer.pid} is not in pane ${pane.label()}'s process tree; metadata is reported from a process in the pane`, {
      id: pane.id,
      pid: peer.pid,
    });
  }
}
