// A snapshot reads only the rows the emulator touched since the last one (src/terminal/touched-rows.ts).
// Held here against a read of every row, after every piece of every recorded agent stream and of a
// stream of random control sequences: a row the emulator changed without marking it would show.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Screen } from '../../src/terminal/screen.ts';
import { parseAsciicast } from '../../src/terminal/asciicast.ts';

const STREAMS = new URL('../fixtures/streams/', import.meta.url).pathname;

function casts(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return casts(path);
    return name.endsWith('.cast') ? [path] : [];
  });
}

/** The snapshot's lines as a read of every row gives them: right-trimmed unless the row below continues it. */
function fullLines(screen: Screen): string[] {
  const rows = screen.read({ source: 'screen' }).split('\n');
  const wrapped = screen.snapshot().wrapped;
  return rows.map((row, y) => (wrapped[y + 1] ? row : row.trimEnd()));
}

/** Feeds `pieces`, comparing the snapshot with a read of every row after each; the pieces compared. */
async function compare(screen: Screen, pieces: Iterable<string | (() => void)>, what: string): Promise<number> {
  let count = 0;
  for (const piece of pieces) {
    if (typeof piece === 'function') piece();
    else await screen.writeAsync(piece);
    const snapshot = screen.snapshot();
    const full = fullLines(screen);
    if (snapshot.lines.join('\n') !== full.join('\n')) {
      const y = snapshot.lines.findIndex((line, i) => line !== full[i]);
      assert.fail(`${what}, piece ${count}: row ${y} reads ${JSON.stringify(snapshot.lines[y])}, every row read gives ${JSON.stringify(full[y])}`);
    }
    count += 1;
  }
  return count;
}

test('after every piece of every recorded agent stream, the snapshot reads as every row read', async () => {
  const files = casts(STREAMS);
  assert.ok(files.length >= 50, `recorded streams found: ${files.length}`);
  let pieces = 0;
  for (const file of files) {
    const cast = parseAsciicast(readFileSync(file, 'utf8'));
    const screen = new Screen({ cols: cast.header.width, rows: cast.header.height, wholeReadMs: Infinity });
    try {
      const steps = cast.events.flatMap(([, code, data]): (string | (() => void))[] => {
        if (code === 'o') return [data];
        const size = code === 'r' ? /^(\d+)x(\d+)$/.exec(data) : null;
        return size ? [() => screen.resize(Number(size[1]), Number(size[2]))] : [];
      });
      pieces += await compare(screen, steps, file.slice(STREAMS.length));
    } finally {
      screen.dispose();
    }
  }
  assert.ok(pieces > 10_000, `pieces compared: ${pieces}`);
});

/** A small deterministic generator, so that a failure names a seed that makes it again. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** Sequences that write, move, erase, scroll, insert and delete, switch buffers, wrap, reset and fill. */
function piece(next: () => number, cols: number, rows: number): string {
  const n = (max: number) => 1 + Math.floor(next() * max);
  const text = () => ['abc', 'wide 漢字', 'é', '😀', ' spaced   ', 'x'.repeat(n(cols * 2)), '⎿ ✻ ─'][Math.floor(next() * 7)]!;
  const choices: (() => string)[] = [
    () => text(),
    () => `\r\n${text()}`,
    () => `\x1b[${n(rows)};${n(cols)}H${text()}`,
    () => `\x1b[${Math.floor(next() * 4)}J`,
    () => `\x1b[${Math.floor(next() * 3)}K`,
    () => `\x1b[${n(3)}${'ABCD'[Math.floor(next() * 4)]}`,
    () => `\x1b[${n(rows)};${n(rows)}r`,
    () => '\x1b[r',
    () => `\x1b[${n(3)}${'LMST@PX'[Math.floor(next() * 7)]}`,
    () => ['\x1bD', '\x1bM', '\x1bE', '\x1b7', '\x1b8', '\x1b#8'][Math.floor(next() * 6)]!,
    () => ['\x1b[?1049h', '\x1b[?1049l', '\x1b[?47h', '\x1b[?47l', '\x1b[?7l', '\x1b[?7h', '\x1b[?6h', '\x1b[?6l'][Math.floor(next() * 8)]!,
    () => `\x1b[${n(3)}b`,
    () => '\t\b\x0b\x0c\r',
    () => (next() < 0.05 ? '\x1bc' : `\x1b]0;title ${n(9)}\x07`),
    () => `\x1b[?2026h${text()}\x1b[?2026l`,
  ];
  let out = '';
  for (let i = n(6); i > 0; i -= 1) out += choices[Math.floor(next() * choices.length)]!();
  return out;
}

test('after every piece of random control sequences, and resizes, the snapshot reads as every row read', async () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const next = random(seed);
    const screen = new Screen({ cols: 30, rows: 8, wholeReadMs: Infinity });
    try {
      const steps: (string | (() => void))[] = [];
      for (let i = 0; i < 1500; i += 1) {
        if (next() < 0.01) {
          const cols = 10 + Math.floor(next() * 40);
          const rows = 3 + Math.floor(next() * 12);
          steps.push(() => screen.resize(cols, rows));
        } else steps.push(piece(next, 30, 8));
      }
      await compare(screen, steps, `seed ${seed}`);
    } finally {
      screen.dispose();
    }
  }
});

test('a snapshot after no output reads no row again and gives the same strings', async () => {
  const screen = new Screen({ cols: 40, rows: 6, wholeReadMs: Infinity });
  try {
    await screen.writeAsync('one\r\ntwo\r\n\x1b[5;1Hspinner ⠋');
    const first = screen.snapshot();
    await screen.writeAsync('\x1b[5;9H⠙');
    const second = screen.snapshot();
    assert.equal(second.lines[4], 'spinner ⠙');
    assert.ok(Object.is(first.lines[0], second.lines[0]) && Object.is(first.lines[1], second.lines[1]));
  } finally {
    screen.dispose();
  }
});
