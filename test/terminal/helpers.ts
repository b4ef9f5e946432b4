import { spawnTerminalPane } from '../../src/terminal/in-process-pane.ts';
import type { TerminalPane } from '../../src/terminal/types.ts';

export const FIXTURES = new URL('../fixtures/terminal/', import.meta.url).pathname;

/** An interactive bash with no rc files and the prompt `$ `. */
export function spawnBash(options: { cols?: number; rows?: number; env?: Record<string, string> } = {}): TerminalPane {
  return spawnTerminalPane({
    command: 'bash',
    args: ['--norc', '--noprofile', '-i'],
    cwd: '/tmp',
    env: { PS1: '$ ', TERM: 'xterm-256color', ...options.env },
    cols: options.cols ?? 80,
    rows: options.rows ?? 24,
  });
}

export function spawnCommand(script: string, options: { cols?: number; rows?: number } = {}): TerminalPane {
  return spawnTerminalPane({
    command: 'bash',
    args: ['-c', script],
    cwd: '/tmp',
    env: { TERM: 'xterm-256color' },
    cols: options.cols ?? 80,
    rows: options.rows ?? 24,
  });
}

/** Polls `check` until it returns a truthy value; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T, timeoutMs = 5000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function screenText(pane: TerminalPane): string {
  return pane.read({ source: 'screen' });
}

/** Waits until the screen shows `text`. */
export function waitForScreen(pane: TerminalPane, text: string | RegExp, timeoutMs = 5000): Promise<string> {
  const found = (s: string) => (typeof text === 'string' ? s.includes(text) : text.test(s));
  return waitFor(`screen to show ${text}`, () => (found(screenText(pane)) ? screenText(pane) : null), timeoutMs);
}

export function exitOf(pane: TerminalPane): Promise<{ exitCode: number | null; signal: number | null }> {
  if (pane.exited) return Promise.resolve(pane.exited);
  return new Promise((resolve) => pane.onExit(resolve));
}

/** Ends and frees a pane whatever state it is in. */
export async function cleanup(pane: TerminalPane): Promise<void> {
  await pane.terminate();
  pane.dispose();
}
