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

test('a snapshot reads each row as a fresh read does, over redraws, scrolls, wide and combined characters', async () => {
  const screen = new Screen({ cols: 24, rows: 6 });
  try {
    const rows = ['plain', 'café 漢字 — wide', 'e\u0301 combined', '😀 pair', 'x'.repeat(30)];
    const frames: string[] = [];
    for (let i = 0; i < 12; i++) {
      // Redrawn whole (the busy agent's way), scrolled by a line, then one row rewritten in place.
      frames.push(`\x1b[H\x1b[2J${rows.map((_row, k) => `${rows[(k + i) % rows.length]} ${i % 3}`).join('\r\n')}`);
      frames.push(`\r\n${rows[i % rows.length]}`);
      frames.push(`\x1b[2;1H\x1b[2K${rows[(i + 2) % rows.length]}`);
    }
    for (const frame of frames) {
      await screen.writeAsync(frame);
      const snapshot = screen.snapshot();
      const fresh = screen.read({ source: 'screen' }).split('\n');
      assert.deepEqual(
        snapshot.lines,
        fresh.map((line, y) => (snapshot.wrapped[y + 1] ? line : line.trimEnd())),
        JSON.stringify(frame),
      );
    }
  } finally {
    screen.dispose();
  }
});
