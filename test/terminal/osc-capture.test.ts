import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Screen } from '../../src/terminal/screen.ts';
import { OSC_PAYLOAD_LIMIT } from '../../src/terminal/osc-parse.ts';
import type { OscEvent } from '../../src/terminal/types.ts';

const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;

/** A fresh screen fed `stream` one byte per write, as the worst split a PTY read can give. */
async function feedBytewise(stream: string, replies: string[] = []): Promise<{ screen: Screen; events: OscEvent[] }> {
  const screen = new Screen({ cols: 40, rows: 5, reply: (data) => replies.push(data), now: () => 1000 });
  const events: OscEvent[] = [];
  screen.onOsc((event) => events.push(event));
  for (const byte of Buffer.from(stream, 'utf8')) screen.write(Uint8Array.of(byte));
  await screen.flush();
  return { screen, events };
}

test('titles from OSC 0, 1 and 2 with either terminator, split byte by byte', async () => {
  const { screen, events } = await feedBytewise(`${ESC}]0;both ✳${BEL}${ESC}]1;icon${ST}${ESC}]2;title two${ST}`);
  assert.deepEqual(screen.osc.title, { value: 'title two', at: 1000 });
  assert.deepEqual(screen.osc.iconName, { value: 'icon', at: 1000 });
  assert.deepEqual(events, [
    { kind: 'title', value: 'both ✳' },
    { kind: 'title', value: 'title two' },
  ]);
  assert.equal(screen.snapshot().title, 'title two');
  screen.resetProgramState();
  assert.equal(screen.snapshot().title, null);
  screen.dispose();
});

test('OSC 9;4 progress variants and OSC 9 notifications', async () => {
  const cases: [string, unknown][] = [
    ['9;4;1;42', { state: 1, percent: 42 }],
    ['9;4;0;', { state: 0, percent: null }],
    ['9;4;3', { state: 3, percent: null }],
    ['9;4;2;-5', { state: 2, percent: null }],
    ['9;4;4;250', { state: 4, percent: 100 }],
    ['9;4;1', { state: 1, percent: null }],
  ];
  for (const [payload, expected] of cases) {
    const { screen } = await feedBytewise(`${ESC}]${payload}${ST}`);
    assert.deepEqual(screen.snapshot().progress, expected, payload);
    screen.dispose();
  }
  const { screen, events } = await feedBytewise(`${ESC}]9;4;7${BEL}${ESC}]9;Build finished${BEL}`);
  assert.equal(screen.osc.progress, null, 'state 7 is not a progress state');
  assert.deepEqual(events, [{ kind: 'notification', value: { kind: 'osc9', title: null, body: 'Build finished' } }]);
  screen.dispose();
});

test('OSC 777, OSC 99 and BEL notifications', async () => {
  const body64 = Buffer.from('needs approval').toString('base64');
  const { screen } = await feedBytewise(
    `${ESC}]777;notify;Claude;waiting; for you${BEL}` +
      `${ESC}]99;i=1:d=0;Codex${ST}${ESC}]99;i=1:p=body:e=1;${body64}${ST}` +
      `plain${BEL}`,
  );
  assert.deepEqual(
    screen.osc.notifications.map((n) => n.value),
    [
      { kind: 'osc777', title: 'Claude', body: 'waiting; for you' },
      { kind: 'osc99', title: 'Codex', body: 'needs approval' },
      { kind: 'bel', title: null, body: '' },
    ],
  );
  screen.dispose();
});

test('OSC 1337 SetUserVar decodes base64 and ignores malformed values', async () => {
  const value = Buffer.from('v1;agent=claude;state=working').toString('base64');
  const { screen, events } = await feedBytewise(
    `${ESC}]1337;SetUserVar=CORRAL_AGENT=${value}${BEL}${ESC}]1337;SetUserVar=BAD=%%%${BEL}${ESC}]1337;CurrentDir=/tmp${BEL}`,
  );
  assert.deepEqual([...screen.osc.userVars.keys()], ['CORRAL_AGENT']);
  assert.equal(screen.osc.userVars.get('CORRAL_AGENT')?.value, 'v1;agent=claude;state=working');
  assert.deepEqual(events, [{ kind: 'userVar', name: 'CORRAL_AGENT', value: 'v1;agent=claude;state=working' }]);
  screen.dispose();
});

test('OSC 7501 records replace by id, drop working/blocked on a new prompt, and clear', async () => {
  const { screen } = await feedBytewise(
    `${ESC}]7501;state=working:app=codex${ST}` +
      `${ESC}]7501;state=blocked:app=codex:kind=permission${ST}` +
      `${ESC}]7501;state=done:id=sub/1${ST}` +
      `${ESC}]7501;state=bogus${ST}${ESC}]7501;State=idle${ST}${ESC}]7501;state=idle:msg=bad value!${ST}`,
  );
  const records = () => Object.fromEntries([...screen.osc.programStatus].map(([id, r]) => [id, r.value]));
  assert.deepEqual(records(), {
    '': { state: 'blocked', fields: { app: 'codex', kind: 'permission' } },
    'sub/1': { state: 'done', fields: { id: 'sub/1' } },
  });
  screen.write(`${ESC}]133;A${ST}`);
  await screen.flush();
  assert.deepEqual(Object.keys(records()), ['sub/1'], 'a new prompt drops blocked but keeps done');
  screen.write(`${ESC}]7501;state=clear${BEL}`);
  await screen.flush();
  assert.deepEqual(records(), {});
  screen.dispose();
});

test('an OSC 7501 query is answered through reply, and not in offline replay', async () => {
  const replies: string[] = [];
  const live = await feedBytewise(`${ESC}]7501;?${ST}`, replies);
  assert.deepEqual(replies, [`${ESC}]7501;?${ESC}\\`]);
  live.screen.dispose();
  const offline = new Screen({ cols: 20, rows: 3 });
  await offline.writeAsync(`${ESC}]7501;?${ST}ok`);
  assert.equal(offline.read({ source: 'screen' }), 'ok\n\n');
  offline.dispose();
});

test('OSC 133 prompt marks with exit codes', async () => {
  const { screen, events } = await feedBytewise(`${ESC}]133;A${ST}${ESC}]133;B${BEL}${ESC}]133;C${ST}${ESC}]133;D;2${ST}`);
  assert.deepEqual(
    screen.osc.promptMarks.map((m) => m.value),
    [
      { mark: 'A', exitCode: null },
      { mark: 'B', exitCode: null },
      { mark: 'C', exitCode: null },
      { mark: 'D', exitCode: 2 },
    ],
  );
  assert.equal(events.length, 4);
  screen.dispose();
});

test('payloads over 4 KiB are ignored whole, and the stream goes on', async () => {
  const big = 'x'.repeat(4097);
  const { screen, events } = await feedBytewise(`${ESC}]2;${big}${ST}${ESC}]9;${big}${BEL}after`);
  assert.equal(screen.osc.title, null);
  assert.deepEqual(events, []);
  assert.equal(screen.snapshot().lines[0], 'after');
  screen.dispose();
});

test('CAN aborts a sequence in flight', async () => {
  const { screen } = await feedBytewise(`${ESC}]2;lost\x18${ESC}]2;kept${BEL}`);
  assert.equal(screen.osc.title?.value, 'kept');
  screen.dispose();
});

test('terminal queries are answered through reply and never drawn on the screen', async () => {
  const replies: string[] = [];
  const { screen } = await feedBytewise(`a${ESC}[c${ESC}[>q${ESC}]10;?${BEL}${ESC}]11;?${ST}b`, replies);
  assert.equal(screen.snapshot().lines[0], 'ab');
  assert.ok(replies.some((r) => r.startsWith(`${ESC}[?`)), `DA1 answered: ${JSON.stringify(replies)}`);
  screen.dispose();
});

test('OSC wrapped in tmux DCS passthrough (every ESC doubled) is captured', async () => {
  const wrap = (inner: string) => `${ESC}Ptmux;${inner.replaceAll(ESC, ESC + ESC)}${ST}`;
  const { screen } = await feedBytewise(`a${wrap(`${ESC}]2;in tmux${BEL}`)}${wrap(`${ESC}]9;4;1;30${ST}`)}b`);
  assert.equal(screen.osc.title?.value, 'in tmux');
  assert.deepEqual(screen.osc.progress?.value, { state: 1, percent: 30 });
  assert.equal(screen.snapshot().lines[0], 'ab');
  screen.dispose();
});

/** The heap in use after a full collection (V8's gc, reached through a flag set at run time). */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

test('an OSC payload past its limit is not collected: 8 MB of an unfinished title hold no memory', async () => {
  const screen = new Screen({ cols: 40, rows: 5, now: () => 1000 });
  screen.write(Buffer.from('warm up\r\n'));
  await screen.flush();
  const before = heapAfterGc();
  screen.write(Buffer.from(`${ESC}]0;`));
  const piece = Buffer.alloc(64 * 1024, 'x');
  for (let i = 0; i < 128; i++) screen.write(piece);
  await screen.flush();
  const grown = heapAfterGc() - before;
  assert.ok(grown < 2 * 1024 * 1024, `the emulator holds ${grown} bytes of the unfinished payload`);
  screen.write(Buffer.from(`${BEL}${ESC}]2;short${BEL}`));
  await screen.flush();
  assert.deepEqual(screen.osc.title, { value: 'short', at: 1000 }, 'the next title is taken, the long one ignored');
  screen.dispose();
});

test(`an OSC payload of ${OSC_PAYLOAD_LIMIT} bytes is taken, one byte more is ignored, multi-byte characters counted as UTF-8`, async () => {
  const fits = 'é'.repeat(OSC_PAYLOAD_LIMIT / 2);
  const { screen } = await feedBytewise(`${ESC}]2;${fits}${BEL}`);
  assert.equal(screen.osc.title?.value, fits);
  screen.dispose();
  const { screen: over } = await feedBytewise(`${ESC}]2;${fits}x${BEL}`);
  assert.equal(over.osc.title, null);
  over.dispose();
});
