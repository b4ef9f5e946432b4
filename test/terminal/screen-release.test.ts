// A disposed screen is collectable: the emulator keeps the options of the last terminal it made (its
// logger included) in a module variable, so a logger that held its screen kept the last screen, its
// scrollback and its pane alive until the next screen was made.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Screen } from '../../src/terminal/screen.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

test('the last disposed screen is not kept alive by the emulator', async () => {
  let screen: Screen | null = new Screen({ cols: 80, rows: 24, reply: () => undefined });
  await new Promise<void>((resolve) => screen!.write('hello\r\n', resolve));
  const ref = new WeakRef(screen);
  screen.dispose();
  screen = null;
  // Collection runs after the current task: give it a few turns.
  for (let i = 0; i < 10 && ref.deref() !== undefined; i += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  assert.equal(ref.deref(), undefined);
});
