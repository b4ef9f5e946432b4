import type { Terminal } from '@xterm/headless';

/** The emulator's own parser (@xterm/headless 6.0.0, pinned): what its write buffer calls per chunk. */
interface CoreInternals {
  _core?: { _inputHandler?: { parse?: (data: string | Uint8Array) => unknown } };
}

/** Parses a chunk now, in this turn. */
export type ParseNow = (data: string | Uint8Array) => void;

/**
 * The emulator's parse entry, called directly, so that the process's ParseScheduler, not the
 * emulator's write buffer (12 ms per pane per timer), decides when output is parsed. The write
 * buffer only queues chunks and calls this same method with each; `terminal.write` callbacks and
 * `onWriteParsed` are not used by the screen. Null where the emulator is not the shape known: the
 * screen then paces the public `write` one slice at a time.
 *
 * The parser returns a promise only when an asynchronous handler is registered, which the screen never
 * does (OSC capture and history register synchronous ones).
 */
export function directParser(terminal: Terminal): ParseNow | null {
  const handler = (terminal as unknown as CoreInternals)._core?._inputHandler;
  const parse = handler?.parse;
  if (typeof parse !== 'function') return null;
  return (data) => void parse.call(handler, data);
}
