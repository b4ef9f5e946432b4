import { DisposableStore } from '../../base/disposable.ts';
import { PANE_ATTACH, PANE_DETACH, PANE_DETACHED, PANE_OUTPUT, type PaneAttachResult } from '../../protocol/methods/attach.ts';
import { PANE_GET, PANE_RESIZE, PANE_SEND } from '../../protocol/methods/pane.ts';
import type { DaemonConnection } from '../with-daemon.ts';
import { splitAtDetachKey } from './detach-key.ts';
import { TerminalGuard } from './terminal-guard.ts';

export interface AttachOptions {
  target: string;
  /** The byte that detaches (see parseDetachKey). */
  detachKey: string;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

/** How an attachment ended. */
export type AttachOutcome =
  | { reason: 'detached'; pane: PaneAttachResult }
  | { reason: 'exited' | 'removed'; pane: PaneAttachResult; exitCode: number | null; signal: number | null }
  | { reason: 'connection_closed'; pane: PaneAttachResult; message: string };

type Ending = AttachOutcome extends infer O ? (O extends AttachOutcome ? Omit<O, 'pane'> : never) : never;

/** How long a detach waits for the daemon's answer before leaving anyway. */
const DETACH_REPLY_MS = 1000;

function sizeOf(stdout: NodeJS.WriteStream): { cols?: number; rows?: number } {
  return stdout.isTTY && stdout.columns >= 2 && stdout.rows >= 2 ? { cols: stdout.columns, rows: stdout.rows } : {};
}

/**
 * Puts the user's terminal onto a pane until the detach key, the pane's exit or the daemon's going:
 * raw mode on the alternate screen, the pane's output mirrored, typed input forwarded, and the
 * terminal's size given to the pane on attach and on every resize. The terminal is restored after,
 * and on a detach the pane gets back the size it had before, unless another resized it meanwhile.
 */
export async function attachTerminal(client: DaemonConnection, options: AttachOptions): Promise<AttachOutcome> {
  const { stdin, stdout, detachKey } = options;
  const before = await client.call(PANE_GET, { target: options.target }); // a missing pane fails before the screen flips
  const guard = new TerminalGuard(stdin, stdout, { hideCursor: false });
  const subscriptions = new DisposableStore();
  let finish!: (outcome: Ending) => void;
  const ended = new Promise<Ending>((resolve) => (finish = resolve));

  subscriptions.add(client.onNotification(PANE_OUTPUT, ({ data }) => void stdout.write(data)));
  subscriptions.add(client.onNotification(PANE_DETACHED, ({ reason, exitCode, signal }) => finish({ reason, exitCode, signal })));
  subscriptions.add(client.onClose((error) => finish({ reason: 'connection_closed', message: error.message })));
  guard.enter();
  let pane: PaneAttachResult;
  try {
    pane = await client.call(PANE_ATTACH, { target: options.target, ...sizeOf(stdout) });
  } catch (error) {
    subscriptions.dispose();
    guard.leave();
    throw error;
  }
  /** The size this terminal last gave the pane. */
  let given = { cols: pane.cols, rows: pane.rows };
  const ignore = () => {}; // a send racing the pane's exit fails; pane.detached tells the rest
  const onInput = (chunk: string) => {
    const { forward, detach } = splitAtDetachKey(chunk, detachKey);
    if (forward !== '') client.call(PANE_SEND, { target: pane.id, text: forward }).catch(ignore);
    if (detach) finish({ reason: 'detached' });
  };
  const onResize = () => {
    const size = sizeOf(stdout);
    if (size.cols !== undefined && size.rows !== undefined) {
      given = { cols: size.cols, rows: size.rows };
      client.call(PANE_RESIZE, { target: pane.id, cols: size.cols, rows: size.rows }).catch(ignore);
    }
  };
  stdin.setEncoding('utf8');
  stdin.on('data', onInput);
  stdin.resume();
  stdout.on('resize', onResize);

  const outcome = await ended;
  stdin.off('data', onInput);
  stdin.pause();
  stdout.off('resize', onResize);
  subscriptions.dispose();
  if (outcome.reason === 'detached') {
    const detach = async () => {
      await client.call(PANE_DETACH, { target: pane.id });
      await giveBackSize(client, pane.id, { cols: before.cols, rows: before.rows }, given);
    };
    await Promise.race([detach().catch(ignore), delay(DETACH_REPLY_MS)]);
  }
  guard.leave();
  return { ...outcome, pane } as AttachOutcome;
}

/**
 * The pane's size before the attach, back, when it still has the size this terminal gave it last: a
 * size another client (or `pane resize`) set meanwhile is theirs, and stays. Another terminal of the
 * very same size still attached cannot be told apart; its next resize takes the pane again.
 */
async function giveBackSize(client: DaemonConnection, id: string, before: Size, given: Size): Promise<void> {
  if (before.cols === given.cols && before.rows === given.rows) return;
  const now = await client.call(PANE_GET, { target: id });
  if (now.cols !== given.cols || now.rows !== given.rows) return;
  await client.call(PANE_RESIZE, { target: id, cols: before.cols, rows: before.rows });
}

interface Size {
  cols: number;
  rows: number;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
