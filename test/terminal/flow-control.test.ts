import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, exitOf, spawnCommand } from './helpers.ts';
import { PtyProcess } from '../../src/terminal/pty-process.ts';
import { Screen } from '../../src/terminal/screen.ts';
import { OutputPump } from '../../src/terminal/output-pump.ts';
import { ParseScheduler } from '../../src/terminal/parse-scheduler.ts';

test('50 MB of fast output neither overflows the emulator nor grows memory, and ends right', async () => {
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
  const pane = spawnCommand(`yes 'lorem ipsum dolor sit amet 0123456789' | head -c 50000000; printf '\\nEND-MARKER\\n'`, {
    rows: 5,
  });
  try {
    const info = await exitOf(pane);
    assert.equal(info.exitCode, 0);
    const lines = pane.snapshot().lines;
    assert.equal(lines[3], 'END-MARKER');
    assert.match(lines[2], /^(lorem ipsum dolor sit amet 0123456789)?$|^lorem/);
  } finally {
    clearInterval(sampler);
    await cleanup(pane);
  }
  const growthMb = (rssPeak - rssBefore) / 1e6;
  assert.ok(growthMb < 150, `resident memory grew by ${growthMb.toFixed(0)} MB`);
});

test('output pauses above the high watermark and resumes below the low one, losing nothing', async () => {
  const pty = new PtyProcess({
    command: 'bash',
    args: ['-c', `stty raw -echo; seq 1 200000; printf 'END-MARKER'`],
    cwd: '/tmp',
    env: {},
    cols: 80,
    rows: 3,
  });
  // Parsing is held until the PTY has been paused: the parser is behind, as under a flood, whatever
  // the speed of the machine. Then turns run as usual.
  const held: (() => void)[] = [];
  let holding = true;
  const scheduler = new ParseScheduler({ defer: (turn) => (holding ? held.push(turn) : setImmediate(turn)) });
  const screen = new Screen({ cols: 80, rows: 3, scheduler });
  let peak = 0;
  const pump = new OutputPump(pty, screen, () => (peak = Math.max(peak, screen.unparsedLength)), {
    high: 16 * 1024,
    low: 4 * 1024,
  });
  const exited = new Promise((resolve) => pty.onExit(resolve));
  while (pump.pauses === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  peak = screen.unparsedLength;
  holding = false;
  for (const turn of held.splice(0)) turn();
  const info = await exited;
  await screen.flush();
  try {
    assert.deepEqual(info, { exitCode: 0, signal: null });
    assert.ok(pump.pauses > 0, 'the PTY was paused at least once');
    assert.ok(peak < 16 * 1024 + 64 * 1024, `unparsed output peaked at ${peak}`);
    // raw mode: no CR is added to LF, so lines step right; the text is what matters
    assert.deepEqual(
      screen.read({ source: 'screen' }).split('\n').map((line) => line.trim()),
      ['199999', '200000', 'END-MARKER'],
    );
  } finally {
    pump.dispose();
    screen.dispose();
    pty.dispose();
  }
});

// The child's exit starts the drain: reading resumes even if nothing resumes the paused PTY, so the
// tail of a program that exits while its reader is behind is read to the end and its exit is told.
// The output (about 14 KB) fits in the kernel's buffers, so the child can exit while nothing reads.
test('a child that exits while its PTY is paused has its whole tail read, with no one resuming', async () => {
  const pty = new PtyProcess({ command: 'bash', args: ['-c', 'seq 1 3000; printf "TAIL-MARKER\\n"; exit 3'], cwd: process.cwd(), env: {}, cols: 80, rows: 24 });
  const chunks: Buffer[] = [];
  let paused = false;
  pty.onData((data) => {
    chunks.push(data);
    if (!paused) {
      paused = true;
      pty.pause();
    }
  });
  try {
    const info = await new Promise((resolve) => pty.onExit(resolve));
    assert.deepEqual(info, { exitCode: 3, signal: null });
    const text = Buffer.concat(chunks).toString('utf8');
    assert.ok(text.endsWith('2999\r\n3000\r\nTAIL-MARKER\r\n'), `the stream ended with ${JSON.stringify(text.slice(-40))}`);
  } finally {
    pty.dispose();
  }
});
