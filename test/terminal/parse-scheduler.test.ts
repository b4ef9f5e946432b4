import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import xterm from '@xterm/headless';
import { Screen } from '../../src/terminal/screen.ts';
import { ParseScheduler } from '../../src/terminal/parse-scheduler.ts';
import { directParser } from '../../src/terminal/emulator-parse.ts';
import { parseAsciicast } from '../../src/terminal/asciicast.ts';
import { lineToAnsi } from '../../src/terminal/cell-ansi.ts';

const STREAMS = new URL('../fixtures/streams/', import.meta.url);
const FLOOD = 'lorem ipsum dolor sit amet 0123456789 '.repeat(28_000); // about 1 MiB
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

test("the emulator's parse entry is the shape the screen calls directly (@xterm/headless 6.0.0)", async () => {
  const terminal = new xterm.Terminal({ cols: 20, rows: 3, allowProposedApi: true });
  const parse = directParser(terminal);
  // If this fails, the pinned emulator changed: screens fall back to pacing its public write, one
  // slice per callback, and the daemon's parse scheduling no longer bounds a turn. Fix emulator-parse.ts.
  assert.ok(parse, '_core._inputHandler.parse is missing');
  parse('direct \x1b[1mbold\x1b[0m');
  assert.equal(terminal.buffer.active.getLine(0)!.translateToString(true), 'direct bold', 'parsed in the call, with no turn');
  terminal.dispose();
});

test('a prompt written behind a flood is parsed after one slice of the flood, not after its backlog', async () => {
  const scheduler = new ParseScheduler();
  const flood = new Screen({ cols: 80, rows: 5, scheduler });
  const prompt = new Screen({ cols: 80, rows: 5, scheduler });
  try {
    let floodParsed = false;
    flood.write(FLOOD, () => (floodParsed = true));
    await turn(); // the flood is being parsed: it has a backlog
    const backlog = flood.unparsedLength;
    assert.ok(backlog > 0, 'the flood was not parsed in one turn');
    const slicesBefore = scheduler.slices;
    let floodLeft = -1;
    let slicesBetween = -1;
    await new Promise<void>((resolve) =>
      prompt.write('Allow this command? [y/n]', () => {
        floodLeft = flood.unparsedLength;
        slicesBetween = scheduler.slices - slicesBefore;
        resolve();
      }),
    );
    assert.equal(floodParsed, false);
    assert.ok(floodLeft > backlog - 2 * 4096, `the prompt waited for ${backlog - floodLeft} units of the flood`);
    assert.ok(slicesBetween <= 2, `${slicesBetween} slices ran before the prompt's`);
    assert.equal(prompt.snapshot().lines[0], 'Allow this command? [y/n]');
    await flood.flush();
    assert.equal(floodParsed, true);
    assert.equal(flood.unparsedLength, 0);
  } finally {
    flood.dispose();
    prompt.dispose();
  }
});

test('a turn that spent its budget yields: what was queued behind it runs before the rest is parsed', async () => {
  // A clock that moves 1 ms each time it is read: every turn parses a bounded number of slices.
  let clock = 0;
  const scheduler = new ParseScheduler({ budgetMs: 3, now: () => clock++ });
  const screen = new Screen({ cols: 80, rows: 5, scheduler });
  try {
    let done = false;
    screen.write(FLOOD, () => (done = true));
    const seen: number[] = [];
    // Queued after the scheduler's turn: runs when that turn yields.
    await new Promise<void>((resolve) => setImmediate(() => (seen.push(screen.unparsedLength), resolve())));
    assert.equal(scheduler.turns, 1);
    assert.ok(seen[0]! > 0 && seen[0]! < FLOOD.length, `unparsed after one turn: ${seen[0]}`);
    // A timer, too, gets its turn while output is waiting.
    await new Promise<void>((resolve) => setTimeout(() => (seen.push(screen.unparsedLength), resolve()), 0));
    assert.ok(seen[1]! > 0, 'a timer ran only after the whole flood was parsed');
    await screen.flush();
    assert.equal(done, true);
    assert.ok(scheduler.turns > FLOOD.length / 4096 / 4, `${scheduler.turns} turns`);
  } finally {
    screen.dispose();
  }
});

test('parsed callbacks run in write order, each once its own output is on the screen; flush waits for all', async () => {
  const screen = new Screen({ cols: 30, rows: 3 });
  try {
    const order: string[] = [];
    const big = `${'x'.repeat(10_000)}\r\n`;
    screen.write(big, () => order.push(`big ${screen.unparsedLength}`));
    screen.write('', () => order.push(`empty ${screen.unparsedLength}`));
    screen.write('last', () => order.push(`last ${screen.unparsedLength} ${screen.snapshot().lines.at(-1)}`));
    assert.equal(screen.unparsedLength, big.length + 4);
    await screen.flush();
    assert.deepEqual(order, ['big 4', 'empty 4', 'last 0 last']);
    assert.equal(screen.unparsedLength, 0);
  } finally {
    screen.dispose();
  }
});

test('a disposed screen drops its queue, and flush resolves', async () => {
  const screen = new Screen({ cols: 30, rows: 3 });
  let parsed = false;
  screen.write(FLOOD, () => (parsed = true));
  const flushed = screen.flush();
  await turn();
  screen.dispose();
  await flushed;
  for (let i = 0; i < 3; i++) await turn();
  assert.equal(parsed, false);
});

/** The active buffer with colours (trailing blank rows dropped, as `read` does), the cursor and the modes. */
function referenceState(terminal: xterm.Terminal) {
  const buffer = terminal.buffer.active;
  const scratch = buffer.getNullCell();
  const rows: string[] = [];
  for (let y = 0; y < buffer.length; y++) rows.push(lineToAnsi(buffer.getLine(y)!, terminal.cols, scratch));
  while (rows.length > 0 && rows.at(-1) === '') rows.pop();
  const modes = { applicationCursorKeys: terminal.modes.applicationCursorKeysMode, alternateScreen: buffer.type === 'alternate' };
  return { text: rows.join('\n'), cursor: { x: buffer.cursorX, y: buffer.cursorY }, modes, bracketedPaste: terminal.modes.bracketedPasteMode };
}

function screenState(screen: Screen) {
  return { text: screen.read({ source: 'scrollback', ansi: true }), cursor: screen.snapshot().cursor, modes: screen.modes, bracketedPaste: screen.bracketedPaste };
}

test('captured agent streams give the same screens scheduled, interleaved with others, as through the emulator alone', async () => {
  const casts = ['claude-code/session.cast', 'codex/0.171.0/120x32/session.cast', 'qwen/0.24.4/80x24/session.cast', 'pi/0.73.1/60x20/session.cast'];
  const feeds = casts.map((name) => {
    const cast = parseAsciicast(readFileSync(fileURLToPath(new URL(name, STREAMS)), 'utf8'));
    const { width: cols, height: rows } = cast.header;
    const reference = new xterm.Terminal({ cols, rows, scrollback: 100_000, allowProposedApi: true });
    // Emulator scrollback larger than the streams, so that the whole buffer is compared with colours.
    const screen = new Screen({ cols, rows, scrollback: 100_000, emulatorScrollback: 100_000 });
    return { name, cast, reference, screen };
  });
  try {
    // All four screens are fed at once, each event as it comes, without waiting: the scheduler
    // interleaves their slices. The reference terminals parse through the emulator's own write.
    await Promise.all(
      feeds.map(async ({ cast, reference, screen }) => {
        let referenceParsed = Promise.resolve();
        for (const [, code, data] of cast.events) {
          if (code === 'o') {
            screen.write(data);
            referenceParsed = new Promise((resolve) => reference.write(data, resolve));
          } else if (code === 'r') {
            const [cols, rows] = data.split('x').map(Number) as [number, number];
            await Promise.all([screen.flush(), referenceParsed]);
            screen.resize(cols, rows);
            reference.resize(cols, rows);
          }
        }
        await Promise.all([screen.flush(), referenceParsed]);
      }),
    );
    for (const { name, reference, screen } of feeds) assert.deepEqual(screenState(screen), referenceState(reference), name);
    const scrolled = feeds.filter(({ reference }) => reference.buffer.active.length > reference.rows);
    assert.ok(scrolled.length >= 2, 'the streams scrolled: the history is compared too');
  } finally {
    for (const { reference, screen } of feeds) {
      reference.dispose();
      screen.dispose();
    }
  }
});
