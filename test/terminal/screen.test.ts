import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Screen } from '../../src/terminal/screen.ts';

test('the snapshot is the bottom rows of the buffer, each line right-trimmed, written spaces too', async () => {
  const screen = new Screen({ cols: 20, rows: 3 });
  try {
    await screen.writeAsync('one\r\ntwo\r\nthree\r\n❯   ');
    const snapshot = screen.snapshot();
    assert.deepEqual(snapshot.lines, ['two', 'three', '❯']);
    assert.match(screen.read({ source: 'screen' }), /❯ {3}$/, 'reading keeps what the program wrote');
  } finally {
    screen.dispose();
  }
});

test('a long write is parsed whole, a character split between its slices included', async () => {
  const screen = new Screen({ cols: 40, rows: 5 });
  try {
    // 8,195 units: the emulator gets it in slices, and one boundary falls inside a surrogate pair.
    const text = `ab${'é😀'.repeat(2731)}`;
    await screen.writeAsync(text);
    assert.equal(screen.read({ source: 'scrollback' }).split('\n').join(''), text);
  } finally {
    screen.dispose();
  }
});
