// The programs benches run in panes.
import { fileURLToPath } from 'node:url';

/** bench/lib/busy-agent.sh: a Claude-like working screen redrawn ten times a second. */
export const BUSY_AGENT = fileURLToPath(new URL('./busy-agent.sh', import.meta.url));

/** bench/lib/spinner-agent.sh: the same screen drawn once, then only its spinner row ten times a second. */
export const SPINNER_AGENT = fileURLToPath(new URL('./spinner-agent.sh', import.meta.url));

/** The newest frame number a screen of `program` shows (0 before its first): the busy agent numbers its transcript lines, the spinner agent its ticks. */
export function lastFrame(program: string, screen: string): number {
  const numbered = program === SPINNER_AGENT ? /tick (\d+) /g : /updated line (\d+) /g;
  let newest = 0;
  for (const match of screen.matchAll(numbered)) newest = Math.max(newest, Number(match[1]));
  return newest;
}
