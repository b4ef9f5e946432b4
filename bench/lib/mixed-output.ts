// Mixed terminal output for ingest benches: plain text, SGR colours, wide and accented characters.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One MiB of mixed terminal output: plain text, SGR colours, wide and accented characters. */
export function mixedBlock(): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < 1 << 20; i++) {
    const line =
      i % 5 === 0
        ? `\x1b[32m✓\x1b[0m test ${i} passed in \x1b[1m${i % 97}ms\x1b[0m — café 漢字 ok\r\n`
        : `${i.toString().padStart(8, '0')} src/module/file-${i % 13}.ts: lorem ipsum dolor sit amet, consectetur\r\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  return Buffer.from(lines.join(''));
}

export function writeMixedFile(dir: string, megabytes: number): { path: string; bytes: number } {
  const block = mixedBlock();
  const path = join(dir, `mixed-${megabytes}.txt`);
  writeFileSync(path, Buffer.concat(Array.from({ length: megabytes }, () => block)));
  return { path, bytes: block.length * megabytes };
}

export const MiB = 1 << 20;
