import assert from 'node:assert/strict';
import { test } from 'node:test';
import xterm from '@xterm/headless';
import { spawnTerminalPane } from '../../src/terminal/in-process-pane.ts';
import { EMULATOR_SCROLLBACK_LINES, Screen, SCROLLBACK_LINES } from '../../src/terminal/screen.ts';
import { rowText } from '../../src/terminal/row-text.ts';
import { cleanup, waitForScreen } from './helpers.ts';

/**
 * Prints `count` numbered lines from `first`; every 7th is 150 columns long, so it wraps. Lines
 * look like `L00042` or `L00042 www...`; a bold marker on each shows where colours survive.
 */
function printer(first: number, count: number, end: string): string {
  return (
    `for ((i = ${first}; i < ${first + count}; i++)); do ` +
    `if (( i % 7 == 0 )); then printf 'L%05d %s\\n' "$i" "$(printf 'w%.0s' {1..143})"; else printf 'L%05d\\n' "$i"; fi; done; ` +
    `printf '\\033[1m${end}\\033[0m\\n'`
  );
}

/** The numbered lines a scrollback read holds, in order: rows joined, so a wrapped line is one. */
function numbered(text: string, long: boolean): { numbers: number[]; badWrap: number[] } {
  const numbers: number[] = [];
  const badWrap: number[] = [];
  for (const match of text.split('\n').join('').matchAll(/L(\d{5})( w*)?/g)) {
    const n = Number(match[1]);
    numbers.push(n);
    if ((long && n % 7 === 0 ? 144 : 0) !== (match[2]?.length ?? 0)) badWrap.push(n);
  }
  return { numbers, badWrap };
}

function assertContiguous(text: string, first: number, last: number, label: string, long = true): void {
  const { numbers, badWrap } = numbered(text, long);
  assert.deepEqual(badWrap, [], `${label}: wrapped lines intact`);
  assert.equal(numbers[0], first, `${label}: first line`);
  assert.equal(numbers.at(-1), last, `${label}: last line`);
  const gaps = numbers.filter((n, i) => i > 0 && n !== numbers[i - 1]! + 1);
  assert.deepEqual(gaps, [], `${label}: every line once, in order`);
}

test('a scrollback read is whole across the seam between text history and emulator, through resizes', async () => {
  // Well past the emulator's own share of history, so most of it lives in the text ring.
  const batch = EMULATOR_SCROLLBACK_LINES * 4;
  const script = `${printer(1, batch, 'END-ONE')}; read -r; ${printer(batch + 1, batch, 'END-TWO')}; read -r; ${printer(2 * batch + 1, 50, 'END-THREE')}; exec sleep 60`;
  const pane = spawnTerminalPane({ command: 'bash', args: ['-c', script], cwd: '/tmp', env: { TERM: 'xterm-256color' }, cols: 80, rows: 24 });
  try {
    await waitForScreen(pane, 'END-ONE', 20_000);
    assertContiguous(pane.read({ source: 'scrollback' }), 1, batch, 'after the first batch');

    // Narrower: the emulator's rows rewrap, the ring's stay as they were written.
    pane.resize(50, 20);
    assertContiguous(pane.read({ source: 'scrollback' }), 1, batch, 'after narrowing');
    pane.write('\r');
    await waitForScreen(pane, 'END-TWO', 20_000);
    const all = pane.read({ source: 'scrollback' });
    assertContiguous(all, 1, 2 * batch, 'after the second batch');

    // Paging back with offset meets each row once, as pane.read's pages do.
    const length = pane.scrollbackLength();
    assert.equal(length, all.split('\n').length);
    const pages: string[] = [];
    for (let offset = 0; offset < length; offset += 97) pages.unshift(pane.read({ source: 'scrollback', lines: Math.min(97, length - offset), offset }));
    assert.equal(pages.join('\n'), all, 'pages of 97 rows put together are the whole read');

    // Wider and taller: the emulator pulls rows back onto the screen.
    pane.resize(120, 40);
    assertContiguous(pane.read({ source: 'scrollback' }), 1, 2 * batch, 'after widening');
    pane.write('\r');
    await waitForScreen(pane, 'END-THREE', 20_000);
    assertContiguous(pane.read({ source: 'scrollback' }), 1, 2 * batch + 50, 'after the third batch');

    // Colours survive for the lines the emulator still holds; the marker line is on the screen.
    assert.match(pane.read({ source: 'scrollback', lines: 3, ansi: true }), /\x1b\[0;1mEND-THREE\x1b\[0m/);
  } finally {
    await cleanup(pane);
  }
});

test('the scrollback keeps SCROLLBACK_LINES lines above the screen, then drops the oldest', async () => {
  const screen = new Screen({ cols: 40, rows: 5, scrollback: 300, emulatorScrollback: 20 });
  try {
    let text = '';
    for (let i = 1; i <= 1000; i++) text += `L${String(i).padStart(5, '0')}\r\n`;
    await screen.writeAsync(text);
    const rows = screen.read({ source: 'scrollback' }).split('\n');
    // 300 lines above the screen, and the screen's rows up to the cursor's empty last one.
    assert.equal(rows.length, 300 + 4);
    assert.equal(rows[0], 'L00697');
    assert.equal(rows.at(-1), 'L01000');
    assertContiguous(rows.join('\n'), 697, 1000, 'bounded', false);
  } finally {
    screen.dispose();
  }
  assert.ok(SCROLLBACK_LINES >= 5000);
});

test('clearing the scrollback (ED 3) clears the text history too; the alternate screen leaves it alone', async () => {
  const screen = new Screen({ cols: 40, rows: 5, scrollback: 300, emulatorScrollback: 20 });
  try {
    let text = '';
    for (let i = 1; i <= 100; i++) text += `L${String(i).padStart(5, '0')}\r\n`;
    await screen.writeAsync(text);
    // The alternate screen has no history: a read there is its rows only, and leaving it restores it.
    await screen.writeAsync('\x1b[?1049h\x1b[Hfull screen');
    assert.equal(screen.read({ source: 'scrollback' }), 'full screen');
    for (let i = 0; i < 30; i++) await screen.writeAsync('scrolls the alternate screen\r\n');
    await screen.writeAsync('\x1b[?1049l');
    assertContiguous(screen.read({ source: 'scrollback' }), 1, 100, 'after the alternate screen', false);

    await screen.writeAsync('\x1b[H\x1b[2J\x1b[3J');
    assert.equal(screen.read({ source: 'scrollback' }), '');
    await screen.writeAsync('after\r\n');
    assert.equal(screen.read({ source: 'scrollback' }), 'after');
  } finally {
    screen.dispose();
  }
});

test('the text history reads as the emulator itself would with all of it kept: wide, combined, astral and lone surrogates', async () => {
  const limit = 300;
  const screen = new Screen({ cols: 40, rows: 5, scrollback: limit, emulatorScrollback: 20 });
  // The same output into an emulator that keeps every line of it as cells.
  const whole = new xterm.Terminal({ cols: 40, rows: 5, scrollback: limit, allowProposedApi: true });
  try {
    const kinds = [
      (i: number) => `\x1b[32m✓\x1b[0m test ${i} — café 漢字 ok`,
      (i: number) => `${i} e\u0301 a\u200db 👩\u200d💻 ${'😀'.repeat(i % 30)}`,
      (i: number) => `${i} lone \ud800 and \udc00 \ufeff`,
      (i: number) => `${i} ${'long line that wraps '.repeat(1 + (i % 5))}`,
      () => '',
      (i: number) => `\x1b[5C${i}\tgap`,
    ];
    let text = '';
    for (let i = 0; i < 2000; i++) text += `${kinds[i % kinds.length]!(i)}\r\n`;
    await screen.writeAsync(text);
    await new Promise<void>((resolve) => whole.write(text, resolve));
    const buffer = whole.buffer.normal;
    const rows: string[] = [];
    // rowText, not translateToString: the screen reads a lone surrogate as U+FFFD, as it always has.
    for (let y = 0; y < buffer.length; y++) rows.push(rowText(buffer.getLine(y)!));
    while (rows.at(-1) === '') rows.pop();
    assert.equal(buffer.length, limit + 5);
    assert.equal(screen.read({ source: 'scrollback' }), rows.join('\n'));
    assert.equal(screen.scrollbackLength(), rows.length);
    assert.equal(screen.read({ source: 'scrollback', lines: 50, offset: 100 }), rows.slice(-150, -100).join('\n'));
  } finally {
    screen.dispose();
    whole.dispose();
  }
});

test('a full text ring, its lines wrapped round its buffer, stays whole through resizes, more output and a clear', async () => {
  const screen = new Screen({ cols: 40, rows: 5, scrollback: 300, emulatorScrollback: 20 });
  const lines = (first: number, count: number) => {
    let text = '';
    // Lines of different lengths, so that the ring's buffer wraps at a different place each time.
    for (let i = first; i < first + count; i++) text += `L${String(i).padStart(5, '0')}${' x'.repeat(i % 13)}\r\n`;
    return text;
  };
  const numbers = () => [...screen.read({ source: 'scrollback' }).matchAll(/L(\d{5})/g)].map((m) => Number(m[1]));
  /** The numbered lines read, each once and in order, from `first` (any, if undefined) to `last`. */
  const whole = (first: number | undefined, last: number, label: string) => {
    const seen = numbers();
    if (first !== undefined) assert.equal(seen[0], first, `${label}: first line`);
    assert.equal(seen.at(-1), last, `${label}: last line`);
    assert.deepEqual(seen.filter((n, i) => i > 0 && n !== seen[i - 1]! + 1), [], `${label}: every line once, in order`);
  };
  try {
    await screen.writeAsync(lines(1, 3000));
    whole(2697, 3000, 'full');
    screen.resize(25, 7); // the ring forgets its copies of the emulator's rows, which rewrap
    whole(undefined, 3000, 'narrower');
    await screen.writeAsync(lines(3001, 1000));
    screen.resize(60, 4);
    whole(undefined, 4000, 'wider after more');
    await screen.writeAsync('\x1b[3J');
    await screen.writeAsync(lines(4001, 400));
    whole(4098, 4400, 'after a clear and more');
  } finally {
    screen.dispose();
  }
});
