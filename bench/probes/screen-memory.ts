// Not a benchmark: the memory one emulator screen holds, without a daemon. Makes 40 screens of 120x32,
// writes N lines of 100 columns into each and prints the live heap plus external memory per screen
// after a full collection, and the RSS per screen.
// Run: node --expose-gc --import tsx bench/probes/screen-memory.ts [scrollback, default 5000] [lines, default 1200]
import { Screen } from '../../src/terminal/screen.ts';

const SCREENS = 40;
const scrollback = Number(process.argv[2] ?? 5000);
const lines = Number(process.argv[3] ?? 1200);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const live = () => {
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
};

const rssBefore = process.memoryUsage().rss;
const before = live();
const screens: Screen[] = [];
const text = Array.from({ length: lines }, (_, i) => `${String(i + 1).padStart(6, '0')} ${'x'.repeat(93)}\r\n`).join('');
for (let i = 0; i < SCREENS; i += 1) {
  const screen = new Screen({ cols: 120, rows: 32, scrollback });
  screens.push(screen);
  if (lines > 0) await screen.writeAsync(text);
}
const after = live();
console.log(
  JSON.stringify({
    scrollback,
    lines,
    perScreenKiB: Math.round((after - before) / SCREENS / 1024),
    rssPerScreenKiB: Math.round((process.memoryUsage().rss - rssBefore) / SCREENS / 1024),
    screens: screens.length,
  }),
);
