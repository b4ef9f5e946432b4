import type { ProgressReport } from './snapshot.ts';
import type { Notification, ProgramStatus } from './types.ts';

/** Largest OSC payload (Pt, in UTF-8 bytes) we interpret; larger ones are ignored whole. */
export const OSC_PAYLOAD_LIMIT = 4096;

export function exceedsPayloadLimit(data: string): boolean {
  return data.length > OSC_PAYLOAD_LIMIT || Buffer.byteLength(data, 'utf8') > OSC_PAYLOAD_LIMIT;
}

export type Osc9Result =
  | { kind: 'progress'; value: ProgressReport }
  | { kind: 'notification'; value: Notification }
  | null;

/** OSC 9: `4;st[;pr]` is progress (ConEmu); any other text is a notification. */
export function parseOsc9(data: string): Osc9Result {
  if (!data.startsWith('4;')) {
    return data === '' ? null : { kind: 'notification', value: { kind: 'osc9', title: null, body: data } };
  }
  const [stateText, percentText] = data.slice(2).split(';');
  if (!/^[0-4]$/.test(stateText)) return null;
  const state = Number(stateText) as ProgressReport['state'];
  let percent: number | null = null;
  if (percentText !== undefined && /^\d+$/.test(percentText) && (state === 1 || state === 2 || state === 4)) {
    percent = Math.min(100, Number(percentText));
  }
  return { kind: 'progress', value: { state, percent } };
}

/** OSC 777: only `notify;<title>;<body>` is understood (the body may contain `;`). */
export function parseOsc777(data: string): Notification | null {
  const parts = data.split(';');
  if (parts[0] !== 'notify' || parts.length < 2) return null;
  return { kind: 'osc777', title: parts[1], body: parts.slice(2).join(';') };
}

export interface Osc99Part {
  id: string;
  done: boolean;
  field: 'title' | 'body';
  text: string;
}

/** OSC 99 (kitty): `<k=v:k=v>;<payload>`; keys i (id), d (done), p (title|body), e=1 (base64). */
export function parseOsc99(data: string): Osc99Part | null {
  const split = data.indexOf(';');
  if (split < 0) return null;
  const meta = new Map<string, string>();
  if (split > 0) {
    for (const pair of data.slice(0, split).split(':')) {
      const eq = pair.indexOf('=');
      if (eq > 0) meta.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  const field = meta.get('p') ?? 'title';
  if (field !== 'title' && field !== 'body') return null; // icons, buttons, close requests
  let text = data.slice(split + 1);
  if (meta.get('e') === '1') {
    const decoded = decodeBase64Utf8(text);
    if (decoded === null) return null;
    text = decoded;
  }
  return { id: meta.get('i') ?? '', done: meta.get('d') !== '0', field, text };
}

/** Strict standard base64 to UTF-8 text; null when malformed. */
export function decodeBase64Utf8(text: string): string | null {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(text, 'base64'));
  } catch {
    return null;
  }
}

/** OSC 1337: `SetUserVar=<NAME>=<base64>`; other iTerm2 commands and malformed values give null. */
export function parseUserVar(data: string): { name: string; value: string } | null {
  const match = /^SetUserVar=([A-Za-z0-9_.-]+)=(.*)$/s.exec(data);
  if (!match) return null;
  const value = decodeBase64Utf8(match[2]);
  return value === null ? null : { name: match[1], value };
}

const PROGRAM_STATES: readonly ProgramStatus['state'][] = ['idle', 'working', 'done', 'blocked', 'error', 'clear'];
const MAX_ID_SEGMENTS = 8;

export type Osc7501Result =
  | { kind: 'query' }
  | { kind: 'status'; id: string; value: ProgramStatus }
  | null;

/** OSC 7501: `?` (a query) or `k=v:k=v` with keys [a-z]+, restricted values and a required state. */
export function parseOsc7501(data: string): Osc7501Result {
  if (data === '?') return { kind: 'query' };
  const fields: Record<string, string> = {};
  for (const pair of data.split(':')) {
    const eq = pair.indexOf('=');
    if (eq < 0) return null;
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (!/^[a-z]+$/.test(key) || !/^[A-Za-z0-9_.,+/=-]*$/.test(value)) return null;
    fields[key] = value;
  }
  const state = fields.state as ProgramStatus['state'] | undefined;
  if (state === undefined || !PROGRAM_STATES.includes(state)) return null;
  const id = fields.id ?? '';
  if (id.split('/').length > MAX_ID_SEGMENTS) return null;
  delete fields.state;
  return { kind: 'status', id, value: { state, fields } };
}

export type PromptMark = 'A' | 'B' | 'C' | 'D';

/** OSC 133: `A`, `B`, `C`, or `D[;<exit>]`, optionally with further `;k=v` parameters. */
export function parsePromptMark(data: string): { mark: PromptMark; exitCode: number | null } | null {
  const parts = data.split(';');
  const mark = parts[0];
  if (mark !== 'A' && mark !== 'B' && mark !== 'C' && mark !== 'D') return null;
  const exitCode = mark === 'D' && parts[1] !== undefined && /^-?\d+$/.test(parts[1]) ? Number(parts[1]) : null;
  return { mark, exitCode };
}
