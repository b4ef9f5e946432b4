// Loaded with `node --import` into a measured process (harness/peak-rss.ts): as it exits, appends its
// peak resident memory (VmHWM of /proc/self/status, in KiB) to the file $CORRAL_PEAK_RSS_FILE.
import { appendFileSync, readFileSync } from 'node:fs';

const file = process.env.CORRAL_PEAK_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    appendFileSync(file, `${process.pid} ${peak}\n`);
  });
}
