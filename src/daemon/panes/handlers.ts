import { CorralError } from '../../protocol/errors.ts';
import {
  PANE_GET,
  PANE_KILL,
  PANE_LIST,
  MAX_READ_LINES,
  PANE_READ,
  PANE_RESIZE,
  PANE_SEND,
  PANE_SPAWN,
} from '../../protocol/methods/pane.ts';
import { assertInputRoom } from './input-room.ts';
import { keyBytes } from './keys.ts';
import { implement, type DaemonPart, type HandlerBinding } from '../rpc/handler.ts';
import type { PaneRecord } from './pane-record.ts';
import type { PaneRegistry } from './pane-registry.ts';
import { fittedPage } from './scrollback-page.ts';


/** Told of input sent through `pane.send` (the steering queue clears on Escape or C-c), and what else waits to be typed. */
interface PaneInputObserver {
  sent(pane: PaneRecord, text: string | undefined, keys: string[] | undefined): void;
  /** Bytes of the pane's input waiting in this daemon (its steering queue). */
  queuedBytes(paneId: string): number;
}

/** The pane core's part: the `pane.*` methods (the registry itself the daemon disposes, after every part). */
export function startPanes(registry: PaneRegistry, input: PaneInputObserver): DaemonPart {
  return { handlers: paneHandlers(registry, input), dispose: () => undefined };
}

function paneHandlers(registry: PaneRegistry, input: PaneInputObserver): HandlerBinding[] {
  return [
    implement(PANE_SPAWN, async (params) => (await registry.spawn(params)).info()),

    implement(PANE_LIST, () => ({ panes: registry.list().map((pane) => pane.info()) })),

    implement(PANE_GET, ({ target }) => registry.resolve(target).detail()),

    implement(PANE_KILL, ({ target }) => registry.remove(registry.resolve(target))),

    implement(PANE_RESIZE, ({ target, cols, rows }) => {
      const pane = registry.resolve(target);
      pane.assertRunning();
      pane.terminal.resize(cols, rows);
      return pane.info();
    }),

    implement(PANE_SEND, ({ target, text, keys }) => {
      const pane = registry.resolve(target);
      if (text === undefined && keys === undefined) {
        throw new CorralError('invalid_params', 'pass "text", "keys" or both', { field: 'text' });
      }
      const data = (text ?? '') + keyBytes(keys ?? []);
      pane.assertRunning();
      assertInputRoom(pane, Buffer.byteLength(data), input.queuedBytes(pane.id));
      pane.write(data);
      input.sent(pane, text, keys);
      return { bytes: Buffer.byteLength(data) };
    }),

    implement(PANE_READ, async ({ target, source = 'screen', lines, offset, ansi, trim }) => {
      const pane = await registry.resolveReplayed(target);
      if (source === 'screen') {
        const text = pane.terminal.read({ source, ...(lines !== undefined ? { lines } : {}), ...(ansi !== undefined ? { ansi } : {}), ...(trim ? { trim } : {}) });
        return { source, text, cols: pane.terminal.cols, rows: pane.terminal.rows };
      }
      // Scrollback comes in pages of at most MAX_READ_LINES, newest first; `more` says older lines remain.
      // A page also fits the frame: wide, coloured lines come in fewer of them.
      const skip = offset ?? 0;
      const { text, lines: page } = fittedPage(
        (n) => pane.terminal.read({ source, lines: n, offset: skip, ...(ansi !== undefined ? { ansi } : {}) }),
        Math.min(lines ?? MAX_READ_LINES, MAX_READ_LINES),
      );
      const more = pane.terminal.scrollbackLength() - skip - page > 0;
      return { source, text, cols: pane.terminal.cols, rows: pane.terminal.rows, more };
    }),
  ];
}
