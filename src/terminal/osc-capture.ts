import type { Terminal } from '@xterm/headless';
import { DisposableStore, type Disposable } from '../base/disposable.ts';
import { Emitter } from '../base/emitter.ts';
import type { Notification, OscEvent, OscState, ProgramStatus } from './types.ts';
import {
  exceedsPayloadLimit,
  parseOsc7501,
  parseOsc777,
  parseOsc9,
  parseOsc99,
  parsePromptMark,
  parseUserVar,
  type Osc99Part,
} from './osc-parse.ts';

/** Bounds on what one pane keeps, so a chatty program cannot grow memory without end. */
export const MAX_NOTIFICATIONS = 32;
export const MAX_PROMPT_MARKS = 32;
export const MAX_USER_VARS = 64;
export const MAX_PROGRAM_STATUS_RECORDS = 64;
const MAX_PENDING_OSC99 = 8;

/** The answer a terminal that supports OSC 7501 gives to `ESC ] 7501 ; ? ESC \`. */
export const OSC_7501_QUERY_REPLY = '\x1b]7501;?\x1b\\';

export function emptyOscState(): OscState {
  return {
    title: null,
    iconName: null,
    progress: null,
    notifications: [],
    userVars: new Map(),
    programStatus: new Map(),
    promptMarks: [],
  };
}

export interface OscCaptureOptions {
  /** Receives bytes a terminal would answer with (the OSC 7501 query); absent in offline replay. */
  reply?: (data: string) => void;
  now?: () => number;
}

function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key); // re-insert so the map stays in arrival order
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
}

/**
 * Captures the OSC sequences Corral understands from an emulator's parser (which already joins
 * sequences split across writes, accepts BEL and ST, and aborts on CAN/SUB) into an OscState,
 * and emits OscEvents in stream order. tmux passthrough (`ESC P tmux; ... ESC \` with every ESC
 * doubled) needs no handler: the first ESC of a doubled pair ends the DCS and the second starts
 * the inner sequence, which the parser then handles as if unwrapped (tested).
 */
export class OscCapture implements Disposable {
  readonly state: OscState = emptyOscState();
  private readonly emitted = new Emitter<OscEvent>();
  private readonly registrations = new DisposableStore();
  private readonly pendingOsc99 = new Map<string, { title: string | null; body: string }>();
  private readonly now: () => number;
  private readonly reply: ((data: string) => void) | undefined;

  constructor(options: OscCaptureOptions = {}) {
    this.now = options.now ?? Date.now;
    this.reply = options.reply;
  }

  /** Starts capturing from an emulator's parser (once: a screen makes its emulator on first output). */
  attach(terminal: Terminal): void {
    const on = (ident: number, handle: (data: string) => void, swallow: boolean): void => {
      this.registrations.add(
        terminal.parser.registerOscHandler(ident, (data) => {
          if (!exceedsPayloadLimit(data)) handle(data);
          return swallow; // titles fall through so the emulator keeps its own state too
        }),
      );
    };
    on(0, (data) => this.setTitle(data, true, true), false);
    on(1, (data) => this.setTitle(data, false, true), false);
    on(2, (data) => this.setTitle(data, true, false), false);
    on(9, (data) => this.onOsc9(data), true);
    on(777, (data) => this.onOsc777(data), true);
    on(99, (data) => this.onOsc99(data), true);
    on(1337, (data) => this.onOsc1337(data), true);
    on(7501, (data) => this.onOsc7501(data), true);
    on(133, (data) => this.onOsc133(data), true);
    this.registrations.add(terminal.onBell(() => this.notify({ kind: 'bel', title: null, body: '' })));
  }

  onOsc(listener: (event: OscEvent) => void): Disposable {
    return this.emitted.event(listener);
  }

  /** Forgets title and progress: they belong to the program that emitted them. */
  resetProgramState(): void {
    this.state.title = null;
    this.state.iconName = null;
    this.state.progress = null;
  }

  /** Drops `working` and `blocked` program-status records (new prompt or process exit). */
  dropTransientStatus(): void {
    for (const [id, record] of this.state.programStatus) {
      if (record.value.state === 'working' || record.value.state === 'blocked') this.state.programStatus.delete(id);
    }
  }

  dispose(): void {
    this.registrations.dispose();
    this.emitted.dispose();
  }

  private emit(event: OscEvent): void {
    this.emitted.fire(event);
  }

  private setTitle(value: string, title: boolean, icon: boolean): void {
    const at = this.now();
    if (icon) this.state.iconName = { value, at };
    if (title) {
      this.state.title = { value, at };
      this.emit({ kind: 'title', value });
    }
  }

  private notify(value: Notification): void {
    pushBounded(this.state.notifications, { value, at: this.now() }, MAX_NOTIFICATIONS);
    this.emit({ kind: 'notification', value });
  }

  private onOsc9(data: string): void {
    const result = parseOsc9(data);
    if (result === null) return;
    if (result.kind === 'notification') return this.notify(result.value);
    this.state.progress = { value: result.value, at: this.now() };
    this.emit({ kind: 'progress', value: result.value });
  }

  private onOsc777(data: string): void {
    const notification = parseOsc777(data);
    if (notification) this.notify(notification);
  }

  private onOsc99(data: string): void {
    const part: Osc99Part | null = parseOsc99(data);
    if (part === null) return;
    const pending = this.pendingOsc99.get(part.id) ?? { title: null, body: '' };
    this.pendingOsc99.delete(part.id);
    if (part.field === 'title') pending.title = (pending.title ?? '') + part.text;
    else pending.body += part.text;
    if (!part.done) {
      setBounded(this.pendingOsc99, part.id, pending, MAX_PENDING_OSC99);
      return;
    }
    this.notify({ kind: 'osc99', title: pending.title, body: pending.body });
  }

  private onOsc1337(data: string): void {
    const userVar = parseUserVar(data);
    if (userVar === null) return;
    setBounded(this.state.userVars, userVar.name, { value: userVar.value, at: this.now() }, MAX_USER_VARS);
    this.emit({ kind: 'userVar', name: userVar.name, value: userVar.value });
  }

  private onOsc7501(data: string): void {
    const result = parseOsc7501(data);
    if (result === null) return;
    if (result.kind === 'query') {
      this.reply?.(OSC_7501_QUERY_REPLY);
      return;
    }
    const value: ProgramStatus = result.value;
    const records = this.state.programStatus;
    if (value.state === 'clear') {
      if (result.id === '') records.clear();
      else records.delete(result.id);
    } else {
      setBounded(records, result.id, { value, at: this.now() }, MAX_PROGRAM_STATUS_RECORDS);
    }
    this.emit({ kind: 'programStatus', value });
  }

  private onOsc133(data: string): void {
    const mark = parsePromptMark(data);
    if (mark === null) return;
    if (mark.mark === 'A') this.dropTransientStatus();
    pushBounded(this.state.promptMarks, { value: mark, at: this.now() }, MAX_PROMPT_MARKS);
    this.emit({ kind: 'promptMark', mark: mark.mark, exitCode: mark.exitCode });
  }
}
