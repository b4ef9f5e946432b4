import type { Disposable } from '../../base/disposable.ts';
import type { DaemonConnection } from '../with-daemon.ts';

/** How a frame is asked for: the terminal's size, the clock, the selected row and the status line. */
export interface SourceFrame {
  cols: number;
  height: number;
  now: number;
  /** The selected row's id (one of `order()`), or null. */
  selected: string | null;
  status?: string;
}

/** Where the selected row's pane is attached: a connection to its daemon and the pane as it knows it. */
export interface AttachPlace {
  connection: DaemonConnection;
  target: string;
  /** Whether that connection's end is top's too (one daemon: yes; a fleet goes on with the others). */
  endsTop: boolean;
}

/**
 * What the live view shows and acts on (top-app.ts): one daemon (host-source.ts) or the fleet
 * (fleet-source.ts). The view owns the terminal, the keys and the selection; the source owns the rows,
 * how they are drawn, and which daemon a key on a row goes to.
 */
export interface TopSource extends Disposable {
  /** Starts feeding the rows; `changed` is called after each change. Rejects when nothing can be shown. */
  start(changed: () => void): Promise<void>;
  /** The selectable rows' ids in display order. */
  order(): string[];
  frame(options: SourceFrame): string[];
  /** Marks the row's agent seen, on its own daemon; resolves to the status line to show. */
  focus(id: string): Promise<string>;
  /** Where the row's pane can be attached here, or a line saying how to attach it elsewhere. */
  attachPlace(id: string): AttachPlace | { hint: string };
  /** Told when the view cannot go on (its one daemon went away). */
  onLost(listener: (error: Error) => void): Disposable;
}
