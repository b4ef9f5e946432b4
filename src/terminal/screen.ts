import xterm from '@xterm/headless';
import type { IBufferCell, Terminal as TerminalType } from '@xterm/headless';
import type { ScreenSnapshot } from './snapshot.ts';
import type { Disposable } from '../base/disposable.ts';
import type { OscEvent, OscState, ReadSource, TerminalModes } from './types.ts';
import { OscCapture } from './osc-capture.ts';
import { lineToAnsi } from './cell-ansi.ts';
import { ScreenHistory } from './history.ts';
import { rowText } from './row-text.ts';
import { Emitter } from '../base/emitter.ts';
import type { EmulatorLogEntry } from './types.ts';
import { directParser, type ParseNow } from './emulator-parse.ts';
import { boundOscPayloads } from './osc-bound.ts';
import { parseScheduler, type ParseScheduler, type ParseTask } from './parse-scheduler.ts';
import { TouchedRows } from './touched-rows.ts';

const { Terminal } = xterm;

/** Lines kept above the screen (`read --source scrollback`), at most. */
export const SCROLLBACK_LINES = 5000;
/**
 * How many of those the emulator keeps as cells, with colours (about 1.75 KiB a line at 120
 * columns); older ones are kept as plain text (about 100 bytes a line). See docs/protocol.md.
 */
export const EMULATOR_SCROLLBACK_LINES = 100;

/**
 * The largest piece of output handed to the emulator at once: the scheduler's unit of work, and the
 * emulator's decode buffer (4 bytes per unit of the largest piece, never released) stays at 16 KiB.
 */
const WRITE_SLICE = 4096;

export interface ScreenOptions {
  cols: number;
  rows: number;
  /** Lines kept above the screen, at most (SCROLLBACK_LINES). */
  scrollback?: number;
  /** How many of them keep their colours in the emulator (EMULATOR_SCROLLBACK_LINES, at least 2). */
  emulatorScrollback?: number;
  /**
   * Receives the bytes a real terminal would send back (answers to DA1, DSR, OSC 10/11 and
   * OSC 7501 queries). A live pane writes them to its PTY; offline replay leaves it out.
   */
  reply?: (data: string) => void;
  now?: () => number;
  /** Who decides when output is parsed; the process's shared scheduler by default. */
  scheduler?: ParseScheduler;
  /** How often a snapshot reads every row, touched or not (WHOLE_READ_MS; tests comparing reads use Infinity). */
  wholeReadMs?: number;
}

/** The emulator, its history beyond its own scrollback, its parse entry and the rows it touched. */
interface Emulator {
  terminal: TerminalType;
  history: ScreenHistory;
  parse: ParseNow | null;
  touched: TouchedRows;
}

/** Output written and not yet parsed, in order; `offset` units of it are parsed. */
interface PendingWrite {
  data: string | Uint8Array;
  offset: number;
  parsed: (() => void) | undefined;
}

export interface ReadOptions {
  source: ReadSource;
  lines?: number;
  /** Scrollback only: how many of the newest lines to skip first (paging back). */
  offset?: number;
  ansi?: boolean;
  /** Screen only: leave out the blank rows below the last row with text, before `lines` counts. */
  trim?: boolean;
}

/**
 * A headless terminal screen: the emulator plus OSC capture, fed with bytes, with no process
 * behind it. Live panes own one; `corral detect replay` feeds it a captured stream.
 */
export class Screen implements Disposable {
  readonly capture: OscCapture;
  /** Made on the first output: a pane that has printed nothing costs no emulator (about 200 KiB). */
  private emulator: Emulator | undefined;
  private size: { cols: number; rows: number };
  private unparsed = 0;
  private readonly pending: PendingWrite[] = [];
  /** Set while a slice is with the emulator's own write buffer (only where `parse` is null). */
  private slicePending = false;
  private readonly scheduler: ParseScheduler;
  private readonly task: ParseTask = { parseSlice: () => this.parseSlice() };
  private drainWaiters: (() => void)[] = [];
  private disposed = false;
  private readonly logs = new Emitter<EmulatorLogEntry>();
  private readonly logSink: LogSink = { logs: this.logs };
  /**
   * The rows' texts at the last snapshot, before trimming: a row the emulator has not touched since
   * is not read again, and a row that reads the same reuses its string.
   */
  private snapshotRows: string[] = [];
  /** The last snapshot's lines and wrap flags: a row and wrap flag below it both unchanged keep the line. */
  private snapshotLines: readonly string[] = [];
  private snapshotWrapped: readonly boolean[] = [];

  constructor(private readonly options: ScreenOptions) {
    this.size = { cols: options.cols, rows: options.rows };
    this.capture = new OscCapture({ reply: options.reply, now: options.now });
    this.scheduler = options.scheduler ?? parseScheduler;
  }

  get cols(): number {
    return this.emulator?.terminal.cols ?? this.size.cols;
  }

  get rows(): number {
    return this.emulator?.terminal.rows ?? this.size.rows;
  }

  get osc(): OscState {
    return this.capture.state;
  }

  /** Whether the application enabled bracketed paste (DECSET 2004). */
  get bracketedPaste(): boolean {
    return this.emulator?.terminal.modes.bracketedPasteMode ?? false;
  }

  /** DECCKM and the alternate buffer, for a client that mirrors this screen. */
  get modes(): TerminalModes {
    const terminal = this.emulator?.terminal;
    return {
      applicationCursorKeys: terminal?.modes.applicationCursorKeysMode ?? false,
      alternateScreen: terminal?.buffer.active.type === 'alternate',
    };
  }

  /** Units (string characters or bytes) written but not yet parsed by the emulator. */
  get unparsedLength(): number {
    return this.unparsed;
  }

  /**
   * Queues output for the emulator; `parsed` runs once this chunk has been parsed. The process's
   * ParseScheduler parses it in slices, in turn with every other screen's output.
   */
  write(data: string | Uint8Array, parsed?: () => void): void {
    if (this.disposed) return;
    this.terminal();
    this.unparsed += data.length;
    this.pending.push({ data, offset: 0, parsed });
    if (!this.slicePending) this.scheduler.ready(this.task);
  }

  /** Writes and resolves once parsed; for offline feeding, where there is no flow control. */
  writeAsync(data: string | Uint8Array): Promise<void> {
    return new Promise((resolve) => this.write(data, resolve));
  }

  /** Resolves once everything written so far has been parsed. */
  flush(): Promise<void> {
    if (this.disposed || this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  resize(cols: number, rows: number): void {
    this.size = { cols, rows };
    this.emulator?.history.resize(cols, rows);
  }

  onOsc(listener: (event: OscEvent) => void): Disposable {
    return this.capture.onOsc(listener);
  }

  /** The emulator's own warnings and errors ("Parsing error" on malformed input), message only. */
  onEmulatorLog(listener: (entry: EmulatorLogEntry) => void): Disposable {
    return this.logs.event(listener);
  }

  resetProgramState(): void {
    this.capture.resetProgramState();
  }

  /** The bottom `rows` rows of the active buffer (from baseY, never the viewport), right-trimmed. */
  snapshot(): ScreenSnapshot {
    const rows = this.rows;
    const wrapped: boolean[] = new Array(rows).fill(false);
    const lines: string[] = new Array(rows).fill('');
    const terminal = this.emulator?.terminal;
    const buffer = terminal?.buffer.active;
    if (buffer) {
      // Detection takes one per output turn of every busy pane: only the rows the emulator touched
      // since the last one are read, the others keep their text; every row is read for its wrap
      // flag. A row read whose text is the one it had at the last snapshot, or the one the row below
      // it had (output that scrolled by a line), keeps that string.
      const earlier = this.snapshotRows;
      const earlierLines = this.snapshotLines;
      const earlierWrapped = this.snapshotWrapped;
      const touched = this.emulator!.touched.take(rows);
      const from = earlier.length === rows ? touched.from : 0;
      const to = earlier.length === rows ? touched.to : rows - 1;
      const texts: string[] = new Array(rows);
      let line = buffer.getLine(buffer.baseY);
      for (let y = 0; y < rows; y++) {
        const below = y + 1 < rows ? buffer.getLine(buffer.baseY + y + 1) : undefined;
        wrapped[y] = line?.isWrapped ?? false;
        // rowText drops only cells never written; spaces a program wrote stay: trim them, except
        // on a row that wraps onto the next, where they are part of the wrapped line.
        const text = y < from || y > to ? earlier[y]! : line ? rowText(line, earlier[y], earlier[y + 1]) : '';
        texts[y] = text;
        const continued = below?.isWrapped ?? false;
        // earlierLines holds a line for every row earlier does (both are set together).
        lines[y] = text === earlier[y] && continued === (earlierWrapped[y + 1] ?? false) ? earlierLines[y]! : continued ? text : text.trimEnd();
        line = below;
      }
      this.snapshotRows = texts;
      this.snapshotLines = lines;
      this.snapshotWrapped = wrapped;
    }
    return {
      cols: this.cols,
      rows,
      lines,
      wrapped,
      cursor: { x: buffer?.cursorX ?? 0, y: buffer?.cursorY ?? 0 },
      title: this.osc.title?.value ?? null,
      progress: this.osc.progress?.value ?? null,
    };
  }

  /**
   * Text of the screen (exactly `rows` lines) or of the scrollback and screen together (trailing
   * blank lines dropped); `lines` keeps only the last N; `ansi` keeps colours and attributes (for
   * lines the emulator still holds: older history is plain text).
   */
  read(options: ReadOptions): string {
    const ansi = options.ansi ?? false;
    let lines: string[];
    if (options.source === 'screen') {
      lines = this.screenRows(ansi);
      if (options.trim) lines = lines.slice(0, textRows(ansi ? this.screenRows(false) : lines));
      if (options.lines !== undefined && options.lines >= 0) lines = lines.slice(Math.max(0, lines.length - options.lines));
    } else {
      // Only the lines asked for are rendered: a read of a few lines costs a few lines, not the whole buffer.
      const stop = Math.max(0, this.scrollbackLength() - (options.offset ?? 0));
      const count = options.lines !== undefined && options.lines >= 0 ? options.lines : stop;
      lines = this.historyRows(Math.max(0, stop - count), stop, ansi);
    }
    return lines.join('\n');
  }

  /** Lines of scrollback and screen together, trailing blank lines not counted (the scrollback is always trimmed). */
  scrollbackLength(): number {
    if (!this.emulator) return 0;
    const scratch = this.emulator.terminal.buffer.active.getNullCell();
    let end = this.scrollbackRows();
    while (end > 0 && this.scrollbackRow(end - 1, false, scratch) === '') end -= 1;
    return end;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.pending.length = 0;
    this.snapshotRows = [];
    this.snapshotLines = [];
    this.snapshotWrapped = [];
    for (const resolve of this.drainWaiters.splice(0)) resolve();
    this.emulator?.history.dispose();
    this.emulator?.touched.dispose();
    this.capture.dispose();
    this.emulator?.terminal.dispose();
    this.logs.dispose();
    this.logSink.logs = null;
  }

  private terminal(): TerminalType {
    this.emulator ??= this.makeEmulator();
    return this.emulator.terminal;
  }

  /**
   * The scheduler's turn: up to one slice of output, from the oldest pending writes (small writes are
   * parsed together, each `parsed` in order once its own output is in); says whether more is ready.
   */
  private parseSlice(): boolean {
    const emulator = this.emulator;
    if (this.disposed || !emulator) return false;
    if (!emulator.parse) return this.paceSlice(emulator.terminal);
    for (let room = WRITE_SLICE; room > 0 && !this.disposed; ) {
      const head = this.pending[0];
      if (!head) break;
      const end = Math.min(head.data.length, head.offset + room);
      try {
        emulator.parse(head.offset === 0 && end === head.data.length ? head.data : slice(head.data, head.offset, end));
        emulator.touched.parsed();
      } catch (error) {
        // The emulator can throw on output after a resize (xterm's eraseInDisplay past a shrunk
        // buffer, test/terminal/touched-rows.test.ts): the piece is told and passed over, so that the
        // pane's output keeps flowing and its exit is still told, instead of its queue stopping here.
        this.logs.fire({ level: 'error', message: emulatorMessage(error) });
        emulator.touched.all();
      }
      room -= end - head.offset;
      this.sliceParsed(head, end);
    }
    return this.pending.length > 0 && !this.disposed;
  }

  /** Not the emulator shape known: its public write, one slice at a time, then back in the queue. */
  private paceSlice(terminal: TerminalType): boolean {
    const head = this.pending[0];
    if (!head) return false;
    const end = Math.min(head.data.length, head.offset + WRITE_SLICE);
    this.slicePending = true;
    terminal.write(slice(head.data, head.offset, end), () => {
      this.slicePending = false;
      this.emulator?.touched.all();
      this.sliceParsed(head, end);
      if (this.pending.length > 0 && !this.disposed) this.scheduler.ready(this.task);
    });
    return false;
  }

  private sliceParsed(head: PendingWrite, end: number): void {
    if (this.disposed) return;
    this.unparsed -= end - head.offset;
    head.offset = end;
    if (end < head.data.length) return;
    this.pending.shift();
    head.parsed?.();
    if (this.pending.length === 0) for (const resolve of this.drainWaiters.splice(0)) resolve();
  }

  private makeEmulator(): Emulator {
    const options = this.options;
    const scrollback = options.scrollback ?? SCROLLBACK_LINES;
    const emulatorScrollback = Math.max(2, Math.min(scrollback, options.emulatorScrollback ?? EMULATOR_SCROLLBACK_LINES));
    const terminal = new Terminal({
      cols: this.size.cols,
      rows: this.size.rows,
      scrollback: emulatorScrollback,
      allowProposedApi: true,
      logLevel: 'warn',
      logger: emulatorLogger(this.logSink),
    });
    const history = new ScreenHistory(terminal, scrollback, emulatorScrollback);
    boundOscPayloads(terminal);
    this.capture.attach(terminal);
    const reply = options.reply;
    if (reply) terminal.onData((data) => reply(data));
    return { terminal, history, parse: directParser(terminal), touched: new TouchedRows(terminal, options.wholeReadMs) };
  }

  /** The screen's rows, blank before the first output. */
  private screenRows(ansi: boolean): string[] {
    const terminal = this.emulator?.terminal;
    if (!terminal) return new Array<string>(this.rows).fill('');
    const buffer = terminal.buffer.active;
    const scratch = buffer.getNullCell();
    const lines: string[] = [];
    for (let y = buffer.baseY; y < buffer.baseY + terminal.rows; y++) {
      const line = buffer.getLine(y);
      if (!line) lines.push('');
      else lines.push(ansi ? lineToAnsi(line, terminal.cols, scratch) : rowText(line));
    }
    return lines;
  }

  /**
   * Rows of the scrollback: the normal buffer's history (text ring and emulator) and screen; on the
   * alternate screen, which has no history, its rows only.
   */
  private scrollbackRows(): number {
    const emulator = this.emulator;
    if (!emulator) return 0;
    const buffer = emulator.terminal.buffer.active;
    return buffer.type === 'normal' ? emulator.history.length : buffer.length;
  }

  private scrollbackRow(index: number, ansi: boolean, scratch: IBufferCell): string {
    const emulator = this.emulator;
    if (!emulator) return '';
    const buffer = emulator.terminal.buffer.active;
    if (buffer.type === 'normal') return emulator.history.row(index, ansi, scratch);
    const line = buffer.getLine(index);
    if (!line) return '';
    return ansi ? lineToAnsi(line, emulator.terminal.cols, scratch) : rowText(line);
  }

  private historyRows(start: number, end: number, ansi: boolean): string[] {
    const scratch = this.emulator?.terminal.buffer.active.getNullCell();
    const lines: string[] = [];
    if (!scratch) return lines;
    for (let y = start; y < end; y++) lines.push(this.scrollbackRow(y, ansi, scratch));
    return lines;
  }
}

/** Part of a write without copying (a split character is joined again by the emulator's decoder). */
function slice(data: string | Uint8Array, start: number, end?: number): string | Uint8Array {
  return typeof data === 'string' ? data.slice(start, end) : data.subarray(start, end);
}

/** Where a screen's emulator warnings go; emptied when the screen is disposed. */
interface LogSink {
  logs: Emitter<EmulatorLogEntry> | null;
}

/**
 * The emulator's own warnings go to listeners (the daemon's log, rate-limited per pane), never to the
 * console; only the message is kept: its arguments can hold what the program printed. The emulator
 * keeps the options of the last terminal it made (its logger included) in a module variable, past
 * that terminal's end: so the logger holds only the sink, never the screen or its pane.
 */
function emulatorLogger(sink: LogSink) {
  const ignore = () => undefined;
  const log = (level: EmulatorLogEntry['level']) => (message: unknown) => sink.logs?.fire({ level, message: emulatorMessage(message) });
  return { trace: ignore, debug: ignore, info: ignore, warn: log('warn'), error: log('error') };
}

/** The emulator's message, at most 80 printable characters: a fixed text such as "Parsing error: ". */
function emulatorMessage(message: unknown): string {
  const text = message instanceof Error ? message.message : String(message);
  return text.replace(/[^\x20-\x7e]/g, ' ').trim().slice(0, 80);
}

/** How many rows there are up to the last one with text. */
function textRows(plain: string[]): number {
  let end = plain.length;
  while (end > 0 && plain[end - 1]!.trim() === '') end -= 1;
  return end;
}
