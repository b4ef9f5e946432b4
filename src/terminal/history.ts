import type { IBuffer, IBufferCell, IMarker, Terminal } from '@xterm/headless';
import type { Disposable } from '../base/disposable.ts';
import { TextRing } from './text-ring.ts';
import { lineToAnsi } from './cell-ansi.ts';
import { rowText, rowUtf8, rowUtf8Room } from './row-text.ts';

/**
 * The lines above a screen's normal buffer, kept in two parts. The emulator keeps the newest
 * `emulatorLines` of them as cells, colours and all (about 1.75 KiB per line of 120 columns).
 * Before it trims a line, the line is copied into a ring of plain text (UTF-8, about 100 bytes a
 * line; decoded when read).
 * Read together, oldest first, they are at most `limit` lines, followed by the screen's rows.
 *
 * Rows above the screen change only when the emulator trims them, on a resize (reflow) and on a
 * clear of the scrollback (ED 3, RIS); each of those is handled here.
 */
export class ScreenHistory implements Disposable {
  private readonly ring: TextRing;
  /**
   * The first emulator row above the screen not copied to the ring yet: the rows above it are also
   * the ring's newest lines. Undefined while the ring holds no row the emulator still has. The
   * emulator moves a marker as it trims rows; the boundary always sits above the screen, where
   * nothing else inserts or deletes rows.
   */
  private boundary: IMarker | undefined;
  private resizing = false;
  private readonly subscriptions: Disposable[];

  constructor(
    private readonly terminal: Terminal,
    readonly limit: number,
    readonly emulatorLines: number,
  ) {
    this.ring = new TextRing(limit + emulatorLines);
    const clearedBy = (params: (number | number[])[]) => {
      // ED 3 erases the saved lines of the active buffer; the alternate buffer has none.
      if (params[0] === 3 && terminal.buffer.active.type === 'normal') this.clear();
      return false; // the emulator's own handler runs next
    };
    this.subscriptions = [
      terminal.onScroll(() => this.onScroll()),
      terminal.buffer.onBufferChange(() => this.keepUp()),
      terminal.parser.registerCsiHandler({ final: 'J' }, clearedBy),
      terminal.parser.registerCsiHandler({ prefix: '?', final: 'J' }, clearedBy),
      terminal.parser.registerEscHandler({ final: 'c' }, () => (this.clear(), false)), // RIS
    ];
  }

  /** Rows of history and screen together (trailing blank rows included). */
  get length(): number {
    return this.ringRows().count + this.terminal.buffer.normal.length;
  }

  /** Row `index` of history and screen together; ring rows are plain text even when `ansi` is asked. */
  row(index: number, ansi: boolean, scratch: IBufferCell): string {
    const { from, count } = this.ringRows();
    if (index < count) return this.ring.at(from + index);
    const line = this.terminal.buffer.normal.getLine(index - count);
    if (!line) return '';
    return ansi ? lineToAnsi(line, this.terminal.cols, scratch) : rowText(line);
  }

  /** Resizes the emulator, keeping every line of history exactly once. */
  resize(cols: number, rows: number): void {
    const terminal = this.terminal;
    if (cols === terminal.cols && rows === terminal.rows) return;
    this.resizing = true;
    try {
      // Reflow rewraps the rows above the screen, after which nothing tells which of them the ring
      // holds: the ring forgets its copies instead (the emulator still has each of them)...
      this.ring.dropNewest(this.overlap());
      this.dropBoundary();
      // ...and the emulator keeps every row through the reflow: narrower columns make a row several.
      const normal = terminal.buffer.normal;
      terminal.options.scrollback = Math.max(this.emulatorLines, normal.length * Math.ceil(terminal.cols / cols));
      terminal.resize(cols, rows);
      // Then the rows beyond its own share move to the ring, and it lets go of them.
      const excess = normal.length - (rows + this.emulatorLines);
      this.copy(normal, 0, excess);
      terminal.options.scrollback = this.emulatorLines;
    } finally {
      this.resizing = false;
    }
    this.keepUp();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.dropBoundary();
    this.ring.clear();
  }

  /** Ring rows shown before the emulator's: not its copies of rows the emulator still has. */
  private ringRows(): { from: number; count: number } {
    const own = this.ring.length - this.overlap();
    const count = Math.max(0, Math.min(own, this.limit - this.terminal.buffer.normal.baseY));
    return { from: own - count, count };
  }

  private overlap(): number {
    return this.boundary !== undefined && !this.boundary.isDisposed ? this.boundary.line : 0;
  }

  private onScroll(): void {
    // Once per line of output: the common case returns on the first comparison.
    if (this.boundary !== undefined && this.boundary.line > 0) return;
    this.keepUp();
  }

  /** Copies rows to the ring before the emulator's next scroll could trim one not copied yet. */
  private keepUp(): void {
    const terminal = this.terminal;
    const normal = terminal.buffer.normal;
    if (this.resizing || terminal.buffer.active.type !== 'normal' || normal.baseY === 0) return;
    if (this.boundary === undefined || this.boundary.isDisposed) {
      this.dropBoundary();
      this.boundary = this.mark(0);
    }
    if (this.boundary === undefined || this.boundary.line > 0) return;
    if (normal.length < terminal.rows + this.emulatorLines) return; // the next scroll trims nothing
    // The next scroll trims row 0. Copy every row above the screen but the newest, which the
    // boundary moves to (a row above the screen, clear of the screen's inserts and deletes).
    const end = normal.baseY - 1;
    if (end <= 0) return; // an emulator share of one line: nothing is copied ahead
    this.copy(normal, this.boundary.line, end);
    this.dropBoundary();
    this.boundary = this.mark(end);
  }

  private clear(): void {
    this.ring.clear();
    this.dropBoundary();
  }

  private dropBoundary(): void {
    this.boundary?.dispose();
    this.boundary = undefined;
  }

  /** A marker on buffer row `row` of the normal buffer (undefined while the alternate one is active). */
  private mark(row: number): IMarker | undefined {
    const normal = this.terminal.buffer.normal;
    return this.terminal.registerMarker(row - normal.baseY - normal.cursorY);
  }

  /** Copies rows `from` to `end` (not included) of the normal buffer to the ring, as plain text. */
  private copy(normal: IBuffer, from: number, end: number): void {
    const ring = this.ring;
    if (ring.capacity <= 0) return;
    for (let y = from; y < end; y++) {
      const line = normal.getLine(y);
      if (!line) {
        ring.commit(ring.reserve(0));
        continue;
      }
      const room = rowUtf8Room(line);
      const at = ring.reserve(room);
      const stop = rowUtf8(line, ring.buffer, at, at + room);
      if (stop >= 0) {
        ring.commit(stop);
        continue;
      }
      // Combined characters longer than the room a column has: the row's text, encoded (a second
      // reserve before a commit drops no other line).
      const bytes = encoder.encode(rowText(line));
      ring.push(bytes, bytes.length);
    }
  }
}

const encoder = new TextEncoder();
