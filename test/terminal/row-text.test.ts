import assert from 'node:assert/strict';
import { test } from 'node:test';
import xterm from '@xterm/headless';
import { rowText, rowUtf8, rowUtf8Room } from '../../src/terminal/row-text.ts';

test("a row's text is the emulator's own, read from its cells", async () => {
  const terminal = new xterm.Terminal({ cols: 30, rows: 12, allowProposedApi: true });
  const lines = [
    'plain ascii',
    'spaces written at the end   ',
    '漢字 and café 😀 mixed',
    'e\u0301 combining, a\u200db joiner, 👩\u200d💻 sequence',
    'tab\tgap\tthere',
    '\x1b[1;31mcolour\x1b[0m then \x1b[7minverse\x1b[0m',
    '\x1b[10Cafter a cursor jump',
    'a line long enough to wrap onto the next row of the screen',
    '❯\u00a0',
    '\x1b[44m        \x1b[0m',
    '\ufeffstarts with a byte order mark',
    '\x1b[3C\ufeff after a gap',
  ];
  await new Promise<void>((resolve) => terminal.write(lines.join('\r\n'), resolve));
  const buffer = terminal.buffer.active;
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y)!;
    // The emulator's row is the shape rowText reads (so it is not falling back).
    assert.ok((line as unknown as { _line: { _data: unknown } })._line._data instanceof Uint32Array, 'the emulator row has cell data');
    assert.equal(rowText(line), line.translateToString(true), `row ${y}`);
    // Texts from an earlier read, reused only where they are the row's text.
    assert.equal(rowText(line, 'an earlier row', rowText(line)), line.translateToString(true), `row ${y}, reused`);
    assert.equal(rowText(line, line.translateToString(true).slice(0, -1), `${line.translateToString(true)}x`), line.translateToString(true), `row ${y}, near misses`);
    assert.equal(utf8Of(line), rowText(line), `row ${y} as UTF-8`);
  }
  terminal.dispose();
});

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** rowUtf8 of a row, written after a few bytes already there, in as much room as it needs. */
function utf8Of(line: Parameters<typeof rowUtf8>[0]): string {
  for (let extra = 0; ; extra += 64) {
    const out = new Uint8Array(5 + rowUtf8Room(line) + extra).fill(0x58);
    const end = rowUtf8(line, out, 5, out.length);
    if (end < 0) continue;
    assert.deepEqual([...out.subarray(0, 5)], [0x58, 0x58, 0x58, 0x58, 0x58], 'the bytes before are left alone');
    return utf8.decode(out.subarray(5, end));
  }
}

test("a row's UTF-8 decodes to its text, lone surrogates and long rows included", async () => {
  // Lone surrogates make the emulator log a parsing error: not printed here.
  const terminal = new xterm.Terminal({ cols: 400, rows: 8, allowProposedApi: true, logLevel: 'off' });
  const lines = [
    'lone high \ud800 then text',
    'lone low \udc00 and a pair \ud83d\ude00',
    'ends with a high surrogate \ud83d',
    '\ud83d\ud83d\ude00 two highs then a low',
    '\u0800\u07ff\u0080\u007f\uffff\ue000 edges of each length',
    '😀'.repeat(150) + ' wide and astral past the first buffer',
    'é'.repeat(390),
    'x\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308\u0309\u030a many marks on one cell',
  ];
  await new Promise<void>((resolve) => terminal.write(lines.join('\r\n'), resolve));
  const buffer = terminal.buffer.active;
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y)!;
    assert.equal(utf8Of(line), rowText(line), `row ${y}`);
  }
  // Too little room is refused, before anything is written past the stop (many marks on one cell
  // are checked as they come).
  const marked = buffer.getLine(7)!;
  let stop = 0;
  for (const out = new Uint8Array(1000); ; stop++) {
    out.fill(0x58);
    const end = rowUtf8(marked, out, 0, stop);
    assert.ok(out.subarray(stop).every((byte) => byte === 0x58), `nothing written past ${stop}`);
    if (end >= 0) {
      assert.equal(utf8.decode(out.subarray(0, end)), rowText(marked));
      break;
    }
  }
  assert.ok(stop > rowText(marked).length * 3, 'the room asked for is the most a row of these columns could need');
  // A row not of the shape known is read through the emulator's own method.
  const odd = { length: 2, translateToString: () => 'fallback é' } as unknown as Parameters<typeof rowUtf8>[0];
  assert.equal(utf8Of(odd), 'fallback é');
  terminal.dispose();
});
