import assert from 'node:assert/strict';
import { test } from 'node:test';
import xterm from '@xterm/headless';
import { rowText } from '../../src/terminal/row-text.ts';

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
  }
  terminal.dispose();
});
