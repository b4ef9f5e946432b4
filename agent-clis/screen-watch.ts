// Feeds a PTY's raw bytes into a headless emulator and a byte-exact log, and lets a driver wait
// for screen states. OSC titles and OSC 9;4 progress are logged with the byte offset they arrived at.
import xterm from '@xterm/headless';
import { AsciicastRecorder, type AsciicastHeader } from '../src/terminal/asciicast.ts';
import { OSC_7501_QUERY_REPLY } from '../src/terminal/osc-capture.ts';

const { Terminal } = xterm;

export interface OscEvent {
  offset: number;
  code: number;
  payload: string;
}

export class ScreenWatch {
  readonly chunks: Buffer[] = [];
  readonly osc: OscEvent[] = [];
  bytes = 0;
  /** The capture being recorded, with the time of every chunk (session.cast). */
  readonly cast: AsciicastRecorder;
  /** [arrival ms, end offset] per chunk, for output-rate figures. */
  readonly arrivals: [number, number][] = [];
  lastOutputAt = Date.now();
  title: string | null = null;
  progress: string | null = null;
  private readonly term: InstanceType<typeof Terminal>;
  /** End offsets of chunks written but not yet parsed; the head is the chunk being parsed. */
  private readonly pendingEnds: number[] = [];

  /**
   * answerStatusQuery: answer the OSC 7501 query as a Corral pane does (src/terminal/osc-capture.ts),
   * so a CLI that asks first (Claude Code) reports its own state into the recording.
   */
  constructor(cols: number, rows: number, reply: (data: string) => void, corral?: AsciicastHeader['corral'], options: { answerStatusQuery?: boolean } = {}) {
    this.cast = new AsciicastRecorder({ width: cols, height: rows, startedAt: Date.now(), ...(corral ? { corral } : {}) });
    this.term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 2000 });
    // A real terminal answers queries (DA1, colours); some CLIs wait for the answer.
    this.term.onData(reply);
    for (const code of [0, 1, 2, 9, 7501]) {
      this.term.parser.registerOscHandler(code, (payload) => {
        // The offset is the end of the chunk that carried the sequence: a prefix of that length contains it.
        this.osc.push({ offset: this.pendingEnds[0] ?? this.bytes, code, payload });
        if (code === 0 || code === 2) this.title = payload;
        if (code === 9 && payload.startsWith('4;')) this.progress = payload;
        if (code === 7501 && payload === '?' && options.answerStatusQuery) reply(OSC_7501_QUERY_REPLY);
        return false;
      });
    }
  }

  feed(data: Buffer): void {
    this.chunks.push(data);
    this.bytes += data.length;
    this.lastOutputAt = Date.now();
    this.cast.output(data, this.lastOutputAt);
    this.arrivals.push([this.lastOutputAt, this.bytes]);
    this.pendingEnds.push(this.bytes);
    this.term.write(data, () => this.pendingEnds.shift());
  }

  /** Waits until the emulator has parsed every byte fed so far. */
  flush(): Promise<void> {
    return new Promise((resolve) => this.term.write('', resolve));
  }

  /** The bottom rows of the buffer (from baseY), right-trimmed. */
  lines(): string[] {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < this.term.rows; y++) {
      out.push(buffer.getLine(buffer.baseY + y)?.translateToString(true) ?? '');
    }
    return out;
  }

  /** Bytes that arrived in the last windowMs. */
  recentBytes(windowMs: number): number {
    const since = Date.now() - windowMs;
    let start = this.bytes;
    for (let i = this.arrivals.length - 1; i >= 0 && this.arrivals[i]![0] >= since; i--) {
      start = i > 0 ? this.arrivals[i - 1]![1] : 0;
    }
    return this.bytes - start;
  }

  text(): string {
    return this.lines().join('\n');
  }

  raw(): Buffer {
    return Buffer.concat(this.chunks);
  }

  dispose(): void {
    this.term.dispose();
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(watch: ScreenWatch, pattern: RegExp, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await watch.flush();
    if (pattern.test(watch.text())) return;
    if (Date.now() > deadline) {
      throw new Error(`capture_timeout: waited ${timeoutMs} ms for ${what} (${pattern}); screen:\n${watch.text()}`);
    }
    await sleep(100);
  }
}

export async function waitForAbsent(watch: ScreenWatch, pattern: RegExp, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await watch.flush();
    if (!pattern.test(watch.text())) return;
    if (Date.now() > deadline) {
      throw new Error(`capture_timeout: waited ${timeoutMs} ms for ${what} to go (${pattern}); screen:\n${watch.text()}`);
    }
    await sleep(100);
  }
}

export async function waitForChange(watch: ScreenWatch, before: string, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await watch.flush();
    if (watch.text() !== before) return;
    if (Date.now() > deadline) throw new Error(`capture_timeout: waited ${timeoutMs} ms for ${what}`);
    await sleep(50);
  }
}

/** Waits until no byte arrived for quietMs; returns false if that never happened within maxMs. */
export async function waitQuiet(watch: ScreenWatch, quietMs: number, maxMs = 15000): Promise<boolean> {
  const deadline = Date.now() + maxMs;
  while (Date.now() - watch.lastOutputAt < quietMs) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  await watch.flush();
  return true;
}
