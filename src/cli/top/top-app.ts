import { attachTerminal, type AttachOutcome } from '../attach/attach-session.ts';
import { TerminalGuard } from '../attach/terminal-guard.ts';
import { parseTopKeys, type TopAction } from './keys.ts';
import { KEY_HELP } from './render.ts';
import type { TopSource } from './top-source.ts';

export interface TopAppOptions {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  detachKey: string;
  /** Prints how an attachment from top ended (on the status line). */
  describe: (outcome: AttachOutcome) => string;
}

/** Ages tick on screen; the rows themselves change only on events. */
const CLOCK_MS = 1000;

/**
 * The live full-screen view of a source (one daemon or the fleet: top-source.ts): redrawn on change,
 * resize and each clock tick; keys move, focus, attach (leaving top for the pane and coming back on
 * detach) and quit, each on the selected row's own daemon. Resolves when the user quits; rejects
 * when the source is lost (its one daemon went away).
 */
export async function runTop(source: TopSource, options: TopAppOptions): Promise<void> {
  const { stdin, stdout } = options;
  const guard = new TerminalGuard(stdin, stdout, { hideCursor: true });
  let selectedId: string | null = null;
  let status = '';
  let paused = false;
  let drawScheduled = false;
  let quit!: (error?: Error) => void;
  const done = new Promise<void>((resolve, reject) => (quit = (error) => (error ? reject(error) : resolve())));

  const draw = () => {
    drawScheduled = false;
    if (paused) return;
    const order = source.order();
    if (selectedId === null || !order.includes(selectedId)) selectedId = order[0] ?? null;
    const lines = source.frame({
      cols: stdout.columns || 80,
      height: stdout.rows || 24,
      now: Date.now(),
      selected: selectedId,
      ...(status ? { status } : {}),
    });
    lines.push(`\x1b[2m${KEY_HELP.slice(0, stdout.columns || 80)}\x1b[0m`);
    stdout.write(`\x1b[H${lines.join('\x1b[K\r\n')}\x1b[K\x1b[J`);
  };
  const redraw = () => {
    if (drawScheduled) return;
    drawScheduled = true;
    setImmediate(draw);
  };

  const move = (delta: number) => {
    const order = source.order();
    const at = Math.max(0, order.indexOf(selectedId ?? ''));
    selectedId = order[Math.min(order.length - 1, Math.max(0, at + delta))] ?? null;
  };

  const attach = async (id: string) => {
    let place;
    try {
      place = source.attachPlace(id);
    } catch (error) {
      status = (error as Error).message;
      return;
    }
    if ('hint' in place) {
      status = place.hint;
      return;
    }
    paused = true;
    stdin.off('data', onKeys);
    guard.leave();
    try {
      const outcome = await attachTerminal(place.connection, { target: place.target, detachKey: options.detachKey, stdin, stdout });
      if (outcome.reason === 'connection_closed' && place.endsTop) return quit(new Error(options.describe(outcome)));
      status = options.describe(outcome);
    } catch (error) {
      status = (error as Error).message;
    }
    guard.enter();
    stdin.setEncoding('utf8');
    stdin.on('data', onKeys);
    stdin.resume();
    paused = false;
    redraw();
  };

  const act = (action: TopAction) => {
    status = '';
    if (action === 'quit') return quit();
    if (action === 'up' || action === 'down') return move(action === 'up' ? -1 : 1);
    if (selectedId === null) return;
    if (action === 'attach') return void attach(selectedId);
    source.focus(selectedId).then(
      (line) => (status = line),
      (error: Error) => (status = error.message),
    ).finally(redraw);
  };

  function onKeys(chunk: string) {
    for (const action of parseTopKeys(chunk)) {
      act(action);
      if (paused) return; // attached: the rest of the chunk is not for top
    }
    redraw();
  }

  const lost = source.onLost((error) => quit(error));
  const clock = setInterval(redraw, CLOCK_MS);
  guard.enter();
  stdout.on('resize', redraw);
  stdin.setEncoding('utf8');
  stdin.on('data', onKeys);
  stdin.resume();
  try {
    await source.start(redraw);
    await done;
  } finally {
    paused = true; // a redraw already scheduled must not paint the main screen
    clearInterval(clock);
    lost.dispose();
    source.dispose();
    stdout.off('resize', redraw);
    stdin.off('data', onKeys);
    stdin.pause();
    guard.leave();
  }
}
