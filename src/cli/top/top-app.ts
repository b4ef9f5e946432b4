import { AGENT_FOCUS } from '../../protocol/methods/agent-query.ts';
import { attachTerminal, type AttachOutcome } from '../attach/attach-session.ts';
import { TerminalGuard } from '../attach/terminal-guard.ts';
import type { DaemonConnection } from '../with-daemon.ts';
import { TopFeed } from './feed.ts';
import { parseTopKeys, type TopAction } from './keys.ts';
import { KEY_HELP, renderFrame } from './render.ts';
import { TopRows } from './rows.ts';

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
 * The live full-screen view: rows from the event stream, redrawn on change, resize and each clock
 * tick; keys move, focus, attach (leaving top for the pane and coming back on detach) and quit.
 * Resolves when the user quits; rejects when the daemon goes away.
 */
export async function runTop(client: DaemonConnection, options: TopAppOptions): Promise<void> {
  const { stdin, stdout } = options;
  const rows = new TopRows();
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
    const sorted = rows.sorted();
    let selected = sorted.findIndex((row) => row.id === selectedId);
    if (selected === -1 && sorted.length > 0) selected = 0;
    selectedId = sorted[selected]?.id ?? null;
    const lines = renderFrame(sorted, {
      cols: stdout.columns || 80,
      height: stdout.rows || 24,
      now: Date.now(),
      selected,
      color: true,
      needing: rows.needing(),
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
    const sorted = rows.sorted();
    const at = Math.max(0, sorted.findIndex((row) => row.id === selectedId));
    selectedId = sorted[Math.min(sorted.length - 1, Math.max(0, at + delta))]?.id ?? null;
  };

  const attach = async (id: string) => {
    paused = true;
    stdin.off('data', onKeys);
    guard.leave();
    try {
      const outcome = await attachTerminal(client, { target: id, detachKey: options.detachKey, stdin, stdout });
      if (outcome.reason === 'connection_closed') return quit(new Error(options.describe(outcome)));
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
    const id = selectedId;
    client.call(AGENT_FOCUS, { target: id }).then(
      () => (status = `marked ${id} seen`),
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

  const feed = new TopFeed(client, rows, redraw);
  const closed = client.onClose((error) => quit(new Error(`lost the daemon: ${error.message}`)));
  const clock = setInterval(redraw, CLOCK_MS);
  guard.enter();
  stdout.on('resize', redraw);
  stdin.setEncoding('utf8');
  stdin.on('data', onKeys);
  stdin.resume();
  try {
    await feed.start();
    await done;
  } finally {
    paused = true; // a redraw already scheduled must not paint the main screen
    clearInterval(clock);
    closed.dispose();
    feed.dispose();
    stdout.off('resize', redraw);
    stdin.off('data', onKeys);
    stdin.pause();
    guard.leave();
  }
}
