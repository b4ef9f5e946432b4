import { TerminalError } from './errors.ts';

/**
 * asciicast v2 (asciinema's recording format): a JSON header line, then one `[seconds, code, data]`
 * array per line. Corral stores captures of agent CLIs in it so that timing travels with the bytes.
 */
export interface AsciicastHeader {
  version: 2;
  width: number;
  height: number;
  timestamp?: number;
  env?: Record<string, string>;
  /** Ours; players ignore unknown header keys. `timing: synthetic` marks a capture converted from bytes alone. */
  corral?: { agent?: string; agent_version?: string; timing?: CastTiming };
}

export type CastTiming = 'recorded' | 'synthetic';
export type CastCode = 'o' | 'i' | 'r' | 'm';
export type CastEvent = [seconds: number, code: CastCode, data: string];

export interface Asciicast {
  header: AsciicastHeader;
  events: CastEvent[];
}

/** Named limits on a capture file read from disk. */
export const CAST_LIMITS = {
  maxFileBytes: 64 * 1024 * 1024,
  maxEvents: 2_000_000,
  maxSize: 1000, // columns or rows
} as const;

const CODES: ReadonlySet<string> = new Set(['o', 'i', 'r', 'm']);
const RESIZE = /^(\d{1,4})x(\d{1,4})$/;

/** Parses asciicast v2 text strictly; a bad line throws `capture_invalid` naming the line. */
export function parseAsciicast(text: string): Asciicast {
  if (text.length > CAST_LIMITS.maxFileBytes) throw invalid(`the capture is larger than ${CAST_LIMITS.maxFileBytes} characters`);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines.length - 1 > CAST_LIMITS.maxEvents) throw invalid(`the capture has more than ${CAST_LIMITS.maxEvents} events`);
  const header = parseHeader(lines[0]);
  const events: CastEvent[] = [];
  let previous = 0;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]!.trim() === '') continue;
    const event = parseEvent(lines[i]!, i + 1);
    if (event[0] < previous) throw invalid(`line ${i + 1}: time ${event[0]} goes back (previous ${previous})`);
    if (event[1] === 'r' && !RESIZE.test(event[2])) throw invalid(`line ${i + 1}: a resize event needs "COLSxROWS", not ${JSON.stringify(event[2])}`);
    previous = event[0];
    events.push(event);
  }
  return { header, events };
}

/** Whether a file's first bytes look like an asciicast header rather than raw terminal output. */
export function looksLikeAsciicast(data: Uint8Array): boolean {
  const start = Buffer.from(data.subarray(0, 64)).toString('utf8');
  return /^\{\s*"version"\s*:\s*2\b/.test(start);
}

/** The UTF-8 of every output event, concatenated: what the program wrote (session.raw, derived). */
export function outputBytes(cast: Asciicast): Buffer {
  return Buffer.from(cast.events.filter((event) => event[1] === 'o').map((event) => event[2]).join(''), 'utf8');
}

export function formatAsciicast(cast: Asciicast): string {
  return [JSON.stringify(cast.header), ...cast.events.map(formatEvent)].join('\n') + '\n';
}

function formatEvent([seconds, code, data]: CastEvent): string {
  return `[${seconds.toFixed(6)}, ${JSON.stringify(code)}, ${JSON.stringify(data)}]`;
}

export interface RecorderOptions {
  width: number;
  height: number;
  /** Wall-clock ms of the spawn; event times are seconds since it. */
  startedAt: number;
  env?: Record<string, string>;
  corral?: AsciicastHeader['corral'];
}

/**
 * Builds a capture while a program runs: output is decoded as UTF-8 in stream mode, so a character
 * split across two PTY reads lands whole in the later event, and `bytes` counts exactly what
 * `outputBytes` will return.
 */
export class AsciicastRecorder {
  readonly #header: AsciicastHeader;
  readonly #events: CastEvent[] = [];
  readonly #startedAt: number;
  readonly #decoder = new TextDecoder('utf-8');
  #bytes = 0;

  constructor(options: RecorderOptions) {
    this.#startedAt = options.startedAt;
    this.#header = {
      version: 2,
      width: options.width,
      height: options.height,
      timestamp: Math.floor(options.startedAt / 1000),
      env: options.env ?? { TERM: 'xterm-256color' },
      ...(options.corral ? { corral: options.corral } : {}),
    };
  }

  /** Bytes of output recorded so far (the offset a label at this moment names). */
  get bytes(): number {
    return this.#bytes;
  }

  seconds(at: number): number {
    return Math.max(0, at - this.#startedAt) / 1000;
  }

  output(chunk: Uint8Array, at: number): void {
    const text = this.#decoder.decode(chunk, { stream: true });
    if (text === '') return;
    this.#bytes += Buffer.byteLength(text, 'utf8');
    this.#push([this.seconds(at), 'o', text]);
  }

  input(text: string, at: number): void {
    this.#push([this.seconds(at), 'i', text]);
  }

  marker(label: string, at: number): void {
    this.#push([this.seconds(at), 'm', label]);
  }

  resize(cols: number, rows: number, at: number): void {
    this.#push([this.seconds(at), 'r', `${cols}x${rows}`]);
  }

  cast(): Asciicast {
    return { header: { ...this.#header }, events: [...this.#events] };
  }

  text(): string {
    return formatAsciicast(this.cast());
  }

  #push(event: CastEvent): void {
    // Event times never go back, even if the wall clock does.
    const previous = this.#events[this.#events.length - 1];
    if (previous && event[0] < previous[0]) event[0] = previous[0];
    this.#events.push(event);
  }
}

function parseHeader(line: string | undefined): AsciicastHeader {
  if (line === undefined) throw invalid('the capture is empty (no header line)');
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw invalid('line 1: the header is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('line 1: the header must be a JSON object');
  const header = value as Record<string, unknown>;
  if (header.version !== 2) throw invalid(`line 1: version must be 2, not ${JSON.stringify(header.version)}`);
  for (const key of ['width', 'height'] as const) {
    const size = header[key];
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > CAST_LIMITS.maxSize) throw invalid(`line 1: ${key} must be an integer within 1..${CAST_LIMITS.maxSize}`);
  }
  const timing = (header.corral as { timing?: unknown } | undefined)?.timing;
  if (timing !== undefined && timing !== 'recorded' && timing !== 'synthetic') throw invalid(`line 1: corral.timing must be "recorded" or "synthetic", not ${JSON.stringify(timing)}`);
  return header as unknown as AsciicastHeader;
}

function parseEvent(line: string, number: number): CastEvent {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw invalid(`line ${number}: not JSON`);
  }
  if (!Array.isArray(value) || value.length !== 3) throw invalid(`line ${number}: an event must be [seconds, code, data]`);
  const [seconds, code, data] = value as unknown[];
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) throw invalid(`line ${number}: the time must be a number of seconds >= 0`);
  if (typeof code !== 'string' || !CODES.has(code)) throw invalid(`line ${number}: the code must be "o", "i", "r" or "m", not ${JSON.stringify(code)}`);
  if (typeof data !== 'string') throw invalid(`line ${number}: the data must be a string`);
  return [seconds, code as CastCode, data];
}

function invalid(message: string): TerminalError {
  return new TerminalError('capture_invalid', message);
}
