import xterm from '@xterm/headless';
import type { Terminal as TerminalType } from '@xterm/headless';
import type { ScreenSnapshot } from './snapshot.ts';
import type { Disposable } from '../base/disposable.ts';
import type { OscEvent, OscState, ReadSource, TerminalModes } from './types.ts';
import { OscCapture } from './osc-capture.ts';
import { lineToAnsi } from './cell-ansi.ts';
import { Emitter } from '../base/emitter.ts';
import type { EmulatorLogEntry } from './types.ts';

const { Terminal } = xterm;

/** Lines kept above the screen; 50 idle panes of 120 columns stay well under 100 MB. */
export const SCROLLBACK_LINES = 5000;

export interface ScreenOptions {
  cols: number;
  rows: number;
  scrollback?: number;
  /**
   * Receives the bytes a real terminal would send back (answers to DA1, DSR, OSC 10/11 and
   * OSC 7501 queries). A live pane writes them to its PTY; offline replay leaves it out.
   */
  reply?: (data: string) => void;
  now?: () => number;
}

export interface ReadOptions {
  source: ReadSource;
  lines?: number;
  /** Scrollback only: how many of the newest lines to skip first (paging back). */
  offset?: number;
  ansi?: boolean;
}

/**
 * A headless terminal screen: the emulator plus OSC capture, fed with bytes, with no process
 * behind it. Live panes own one; `corral detect replay` feeds it a captured stream.
 */
export class Screen implements Disposable {
  readonly capture: OscCapture;
  private readonly terminal: TerminalType;
  private unparsed = 0;
  private drainWaiters: (() => void)[] = [];
  private disposed = false;
  private readonly logs = new Emitter<EmulatorLogEntry>();
  private readonly logSink: LogSink = { logs: this.logs };

  constructor(options: ScreenOptions) {
    this.terminal = new Terminal({
      cols: options.cols,
      rows: options.rows,
      scrollback: options.scrollback ?? SCROLLBACK_LINES,
      allowProposedApi: true,
      logLevel: 'warn',
      logger: emulatorLogger(this.logSink),
    });
    const reply = options.reply;
    this.capture = new OscCapture(this.terminal, { reply, now: options.now });
    if (reply) this.terminal.onData((data) => reply(data));
  }

  get cols(): number {
    return this.terminal.cols;
  }

  get rows(): number {
    return this.terminal.rows;
  }

  get osc(): OscState {
    return this.capture.state;
  }

  /** Whether the application enabled bracketed paste (DECSET 2004). */
  get bracketedPaste(): boolean {
    return this.terminal.modes.bracketedPasteMode;
  }

  /** DECCKM and the alternate buffer, for a client that mirrors this screen. */
  get modes(): TerminalModes {
    return {
      applicationCursorKeys: this.terminal.modes.applicationCursorKeysMode,
      alternateScreen: this.terminal.buffer.active.type === 'alternate',
    };
  }

  /** Units (string characters or bytes) written but not yet parsed by the emulator. */
  get unparsedLength(): number {
    return this.unparsed;
  }

  /** Queues output for the emulator; `parsed` runs once this chunk has been parsed. */
  write(data: string | Uint8Array, parsed?: () => void): void {
    if (this.disposed) return;
    const length = data.length;
    this.unparsed += length;
    this.terminal.write(data, () => {
      this.unparsed -= length;
      parsed?.();
      if (this.unparsed === 0) for (const resolve of this.drainWaiters.splice(0)) resolve();
    });
  }

  /** Writes and resolves once parsed; for offline feeding, where there is no flow control. */
  writeAsync(data: string | Uint8Array): Promise<void> {
    return new Promise((resolve) => this.write(data, resolve));
  }

  /** Resolves once everything written so far has been parsed. */
  flush(): Promise<void> {
    // Not write('', cb): the emulator runs an empty write's callback before earlier data is parsed.
    if (this.disposed || this.unparsed === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  resize(cols: number, rows: number): void {
    this.terminal.resize(cols, rows);
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
    // Detection takes one per output turn of every busy pane: each row is read once, the row below
    // is read for its wrap flag only.
    const buffer = this.terminal.buffer.active;
    const rows = this.terminal.rows;
    const wrapped: boolean[] = new Array(rows);
    const lines: string[] = new Array(rows);
    let line = buffer.getLine(buffer.baseY);
    for (let y = 0; y < rows; y++) {
      const below = y + 1 < rows ? buffer.getLine(buffer.baseY + y + 1) : undefined;
      wrapped[y] = line?.isWrapped ?? false;
      // translateToString(true) drops only cells never written; spaces a program wrote stay: trim them,
      // except on a row that wraps onto the next, where they are part of the wrapped line.
      const text = line ? line.translateToString(true) : '';
      lines[y] = below?.isWrapped ? text : text.trimEnd();
      line = below;
    }
    return {
      cols: this.terminal.cols,
      rows,
      lines,
      wrapped,
      cursor: { x: buffer.cursorX, y: buffer.cursorY },
      title: this.osc.title?.value ?? null,
      progress: this.osc.progress?.value ?? null,
    };
  }

  /**
   * Text of the screen (exactly `rows` lines) or of the scrollback and screen together (trailing
   * blank lines dropped); `lines` keeps only the last N; `ansi` keeps colours and attributes.
   */
  read(options: ReadOptions): string {
    const buffer = this.terminal.buffer.active;
    const ansi = options.ansi ?? false;
    let lines: string[];
    if (options.source === 'screen') {
      lines = this.rangeText(buffer.baseY, buffer.baseY + this.terminal.rows, ansi);
      if (options.lines !== undefined && options.lines >= 0) lines = lines.slice(Math.max(0, lines.length - options.lines));
    } else {
      // Only the lines asked for are rendered: a read of a few lines costs a few lines, not the whole buffer.
      const stop = Math.max(0, this.scrollbackLength() - (options.offset ?? 0));
      const count = options.lines !== undefined && options.lines >= 0 ? options.lines : stop;
      lines = this.rangeText(Math.max(0, stop - count), stop, ansi);
    }
    return lines.join('\n');
  }

  /** Lines of scrollback and screen together, trailing blank lines not counted. */
  scrollbackLength(): number {
    const buffer = this.terminal.buffer.active;
    let end = buffer.baseY + this.terminal.rows;
    while (end > 0 && (buffer.getLine(end - 1)?.translateToString(true) ?? '') === '') end -= 1;
    return end;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const resolve of this.drainWaiters.splice(0)) resolve();
    this.capture.dispose();
    this.terminal.dispose();
    this.logs.dispose();
    this.logSink.logs = null;
  }

  private rangeText(start: number, end: number, ansi: boolean): string[] {
    const buffer = this.terminal.buffer.active;
    const scratch = buffer.getNullCell();
    const lines: string[] = [];
    for (let y = start; y < end; y++) {
      const line = buffer.getLine(y);
      if (!line) lines.push('');
      else lines.push(ansi ? lineToAnsi(line, this.terminal.cols, scratch) : line.translateToString(true));
    }
    return lines;
  }
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
