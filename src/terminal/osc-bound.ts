import type { Terminal } from '@xterm/headless';
import { OSC_PAYLOAD_LIMIT } from './osc-parse.ts';

/** One handler of the emulator's OSC parser (@xterm/headless 6.0.0, common/parser/Types.ts IOscHandler). */
interface OscHandler {
  start(): void;
  put(data: Uint32Array, start: number, end: number): void;
  end(success: boolean): boolean | Promise<boolean>;
}

interface OscParserInternals {
  registerHandler(ident: number, handler: OscHandler): { dispose(): void };
  _handlers: Record<number, OscHandler[]>;
}

interface CoreInternals {
  _core?: { _inputHandler?: { _parser?: { _oscParser?: OscParserInternals } } };
}

/** UTF-8 length of one code point. */
function utf8Length(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/**
 * Wraps one handler so that it sees at most OSC_PAYLOAD_LIMIT bytes of a payload: past it, nothing more
 * reaches the handler and the sequence ends unhandled (`end(false)`, which drops what it collected).
 * The emulator's own string handlers collect up to 10,000,000 characters each (PAYLOAD_LIMIT in its
 * common/parser/Constants.ts), so a single 10 MB title held tens of MiB once per handler.
 */
function bounded(inner: OscHandler): OscHandler {
  let bytes = 0;
  let over = false;
  return {
    start() {
      bytes = 0;
      over = false;
      inner.start();
    },
    put(data, start, end) {
      if (over) return;
      let stop = start;
      while (stop < end && bytes <= OSC_PAYLOAD_LIMIT) bytes += utf8Length(data[stop++]!);
      if (bytes > OSC_PAYLOAD_LIMIT) {
        over = true;
        inner.end(false); // lets go of what it holds now, not at the terminator that may never come
        return;
      }
      inner.put(data, start, stop);
    },
    end(success) {
      if (!over) return inner.end(success);
      over = false;
      return false;
    },
  };
}

/**
 * Keeps every OSC handler of `terminal`, the emulator's own and those registered later, within
 * OSC_PAYLOAD_LIMIT: longer payloads are ignored without being collected. Returns false when the
 * emulator is not the shape known (the handlers then keep the emulator's own 10 MB limit).
 */
export function boundOscPayloads(terminal: Terminal): boolean {
  const parser = (terminal as unknown as CoreInternals)._core?._inputHandler?._parser?._oscParser;
  if (parser === undefined || typeof parser.registerHandler !== 'function' || typeof parser._handlers !== 'object') return false;
  for (const list of Object.values(parser._handlers)) {
    for (let i = 0; i < list.length; i++) list[i] = bounded(list[i]!);
  }
  const register = parser.registerHandler.bind(parser);
  parser.registerHandler = (ident, handler) => register(ident, bounded(handler));
  return true;
}
