// The program the attention benches block on demand, and the one clock both ends stamp with.
// It draws a Claude-like idle prompt; on "b" it appends the time to $STAMP_FILE, then draws a
// permission form; on "i" it draws the prompt again; on "q" it exits.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Milliseconds on a clock every process of the machine shares. `monotonic` is process.hrtime
 * (CLOCK_MONOTONIC); `wall` is performance.timeOrigin + performance.now(), the clock a browser page
 * can read too.
 */
export type StampClock = 'monotonic' | 'wall';

const NOW: Record<StampClock, string> = {
  monotonic: 'Number(process.hrtime.bigint()) / 1e6',
  wall: 'performance.timeOrigin + performance.now()',
};

export function clockNow(clock: StampClock): () => number {
  return clock === 'monotonic' ? () => Number(process.hrtime.bigint()) / 1e6 : () => performance.timeOrigin + performance.now();
}

/** The last line of the permission form and of the idle prompt: the end of each drawing. */
export const FORM_END = 'Esc to cancel';
export const IDLE_END = '? for shortcuts';

/** Writes the program into `dir` and gives its path. */
export function writeBlockingAgent(dir: string, clock: StampClock): string {
  const path = join(dir, 'bench-agent.cjs');
  writeFileSync(path, program(NOW[clock]));
  return path;
}

/** The newest stamp the program wrote, in milliseconds on its clock. */
export function lastStamp(file: string): number {
  return Number(readFileSync(file, 'utf8').trim().split('\n').at(-1));
}

function program(now: string): string {
  return String.raw`
const fs = require('node:fs');
const stamps = fs.openSync(process.env.STAMP_FILE, 'a');
const out = (s) => process.stdout.write(s);
const rule = '─'.repeat(78);
const idle = () => out('\x1b]0;✳ Bench Agent\x07\x1b[H\x1b[2JReady.\r\n\r\n' + [rule, '❯ ', rule, '  ? for shortcuts'].join('\r\n'));
const form = () => out('\x1b[H\x1b[2J' + [rule, ' Bash command', '', '   rm -rf /tmp/bench-scratch', '   Remove the scratch folder', '',
  ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No, and tell Claude what to do differently (esc)', '',
  ' Esc to cancel · Tab to amend · ctrl+e to explain'].join('\r\n'));
process.stdin.setRawMode(true);
process.stdin.on('data', (key) => {
  const k = key.toString();
  if (k === 'b') { fs.writeSync(stamps, (${now}) + '\n'); form(); }
  else if (k === 'i') idle();
  else if (k === 'q') process.exit(0);
});
process.on('SIGHUP', () => process.exit(0));
idle();
`;
}
