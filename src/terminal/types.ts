import type { Disposable } from '../base/disposable.ts';
import type { ScreenSnapshot, Timed, ProgressReport } from './snapshot.ts';

export interface PaneSpawnOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
}

/** OSC 7501 program status record (draft standard; Codex emits it). */
export interface ProgramStatus {
  state: 'idle' | 'working' | 'done' | 'blocked' | 'error' | 'clear';
  fields: Record<string, string>;
}

export interface Notification {
  kind: 'osc9' | 'osc777' | 'osc99' | 'bel';
  title: string | null;
  body: string;
}

/** Everything captured from OSC sequences of one pane, each with its arrival time. */
export interface OscState {
  title: Timed<string> | null;
  iconName: Timed<string> | null;
  progress: Timed<ProgressReport> | null;
  notifications: Timed<Notification>[]; // most recent last, bounded
  userVars: Map<string, Timed<string>>; // decoded (base64) values by name
  programStatus: Map<string, Timed<ProgramStatus>>; // OSC 7501 records by id ('' when none)
  promptMarks: Timed<{ mark: 'A' | 'B' | 'C' | 'D'; exitCode: number | null }>[]; // bounded
}

/** Events emitted as OSC sequences are parsed, in stream order. */
export type OscEvent =
  | { kind: 'title'; value: string }
  | { kind: 'progress'; value: ProgressReport }
  | { kind: 'notification'; value: Notification }
  | { kind: 'userVar'; name: string; value: string }
  | { kind: 'programStatus'; value: ProgramStatus }
  | { kind: 'promptMark'; mark: 'A' | 'B' | 'C' | 'D'; exitCode: number | null };

/** The foreground process group of a pane's PTY, read from /proc. */
export interface ProcessMember {
  pid: number;
  ppid: number;
  pgid: number;
  comm: string;
  exe: string | null;
  argv: string[];
  agentHint: string | null; // CORRAL_AGENT from the member's environment
}

export interface ForegroundProcess {
  pgid: number;
  leader: ProcessMember | null; // null when the group leader already exited
  members: ProcessMember[];
}

export interface ExitInfo {
  exitCode: number | null;
  signal: number | null;
  /** The process holding the PTY (the pty host) went away: the pane's fate is unknown. */
  lost?: true;
}

export type ReadSource = 'screen' | 'scrollback';

export interface TerminalModes {
  applicationCursorKeys: boolean; // DECCKM: arrows send ESC O A rather than ESC [ A
  alternateScreen: boolean;
}

/** One pane: a PTY child rendered into a headless emulator. */
/** A warning or error the terminal emulator itself raised; the message never carries pane output. */
export interface EmulatorLogEntry {
  level: 'warn' | 'error';
  message: string;
}

export interface TerminalPane extends Disposable {
  readonly pid: number;
  readonly cols: number;
  readonly rows: number;
  readonly exited: ExitInfo | null;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  snapshot(): ScreenSnapshot;
  read(options: { source: ReadSource; lines?: number; offset?: number; ansi?: boolean; trim?: boolean }): string;
  /** Lines of scrollback and screen together, trailing blank lines not counted. */
  scrollbackLength(): number;
  /** Bytes written to the PTY that the program has not read yet (held in the daemon). */
  readonly pendingInput: number;
  readonly osc: OscState;
  /** Whether the application enabled bracketed paste (DECSET 2004). */
  readonly bracketedPaste: boolean;
  foreground(): ForegroundProcess | null;
  /** Fires after a batch of output has been parsed by the emulator. */
  onOutput(listener: () => void): Disposable;
  /**
   * Fires with each raw chunk of PTY output right after the emulator parsed it, so a screen read
   * before a chunk plus every chunk after it reproduce the stream (attached clients mirror it).
   */
  onData(listener: (data: string) => void): Disposable;
  /** Modes an attached client's terminal must share to show the screen and send keys right. */
  readonly modes: TerminalModes;
  onOsc(listener: (event: OscEvent) => void): Disposable;
  /** The emulator's own warnings ("Parsing error" on malformed output): for a rate-limited log. */
  onEmulatorLog(listener: (entry: EmulatorLogEntry) => void): Disposable;
  /** Fires once, after the PTY stream has closed and the last output is parsed. */
  onExit(listener: (info: ExitInfo) => void): Disposable;
  /** Ends the process group: SIGHUP, then SIGKILL after a named delay. Resolves on exit. */
  terminate(): Promise<ExitInfo>;
  /** Fires when the foreground process group (or a member's program) changes; null once exited. */
  onForegroundChange(listener: (foreground: ForegroundProcess | null) => void): Disposable;
  /** Forgets the title and progress the previous program emitted (call when the program changes). */
  resetProgramState(): void;
  /** Lets go of the pane and leaves its processes running (only where a pty host holds the PTY). */
  detach?(): void;
  /**
   * Resolves once the screen shows what the pane's output drew: a pane taken back from the pty host
   * parses its ring first, over many turns of the event loop, and until then a read sees part of it.
   * Absent where the screen is current from the start.
   */
  readonly replayed?: Promise<void>;
  /**
   * For a pane taken back from the pty host: when the host last saw its output before this daemon
   * took it (ms since the epoch), null when it saw none. Absent for other panes.
   */
  readonly outputEndedAt?: number | null;
  /** Why the pane's processes were signalled by terminate() or dispose(); null when they were not. */
  readonly terminationReason: string | null;
}
