import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FrameKind, FrameReader, MAX_HELLO_FRAME_BYTES, MAX_HOST_FRAME_BYTES, encodeControl, encodeData } from '../../../src/terminal/pty-host/wire.ts';

test('frames split anywhere are read back whole and in order', () => {
  const bytes = Buffer.concat([
    encodeControl({ t: 'hello', version: 1 }),
    encodeData(FrameKind.output, 7, 'héllo \x1b[1mworld\x1b[0m'),
    encodeData(FrameKind.replay, 8, Buffer.alloc(100_000, 0x41)),
  ]);
  for (const step of [1, 3, 4096, bytes.length]) {
    const reader = new FrameReader();
    const frames = [];
    for (let at = 0; at < bytes.length; at += step) frames.push(...reader.push(bytes.subarray(at, at + step)));
    assert.equal(frames.length, 3, `step ${step}`);
    assert.deepEqual(frames[0], { kind: FrameKind.control, message: { t: 'hello', version: 1 } });
    assert.equal(frames[1]!.kind === FrameKind.output && frames[1]!.data.toString('utf8'), 'héllo \x1b[1mworld\x1b[0m');
    assert.equal(frames[2]!.kind === FrameKind.replay && frames[2]!.data.length, 100_000);
  }
});

test('a frame over the named limit is refused before it is buffered', () => {
  const header = Buffer.alloc(5);
  header.writeUInt32BE(MAX_HOST_FRAME_BYTES + 1, 0);
  assert.throws(() => new FrameReader().push(header), { code: 'frame_too_large', message: /over the limit of 16777216/ });
});

test('a reader holds to the limit it is given until it is raised', () => {
  const reader = new FrameReader(MAX_HELLO_FRAME_BYTES);
  const hello = encodeControl({ t: 'hello', version: 3 });
  assert.equal(reader.push(hello).length, 1);
  const big = encodeData(FrameKind.input, 1, Buffer.alloc(MAX_HELLO_FRAME_BYTES));
  assert.throws(() => new FrameReader(MAX_HELLO_FRAME_BYTES).push(big.subarray(0, 4)), { code: 'frame_too_large' });
  reader.limit = MAX_HOST_FRAME_BYTES;
  assert.equal(reader.push(big).length, 1);
});

test('release drops a half-read frame: the next bytes start a new frame', () => {
  const reader = new FrameReader();
  const frame = encodeData(FrameKind.input, 1, Buffer.alloc(100_000, 0x41));
  assert.deepEqual(reader.push(frame.subarray(0, 50_000)), []);
  reader.release();
  const frames = reader.push(encodeControl({ t: 'hello', version: 3 }));
  assert.deepEqual(frames, [{ kind: FrameKind.control, message: { t: 'hello', version: 3 } }]);
});

test('a control frame that is not JSON is a bad frame, with its code', () => {
  const body = Buffer.from('\x01{not json');
  const frame = Buffer.concat([Buffer.from([0, 0, 0, body.length]), body]);
  assert.throws(() => new FrameReader().push(frame), { code: 'bad_frame' });
});

test('a frame of an unknown kind is refused', () => {
  const frame = Buffer.from([0, 0, 0, 1, 99]);
  assert.throws(() => new FrameReader().push(frame), { code: 'bad_frame', message: /unknown host frame kind 99/ });
});

test('frames cut at random places read back byte for byte; a frame within one read is a view of it', () => {
  let state = 7;
  const next = (n: number) => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0), state % n);
  const sent = Array.from({ length: 300 }, (_, i) => Buffer.from(Array.from({ length: 1 + next(i % 10 === 0 ? 5000 : 60) }, () => next(256))));
  const bytes = Buffer.concat(sent.map((data, i) => encodeData(FrameKind.output, i, data)));
  for (const most of [2, 7, 64, 3000, 20_000]) {
    const reader = new FrameReader();
    const got: Buffer[] = [];
    for (let at = 0; at < bytes.length; ) {
      const chunk = Buffer.from(bytes.subarray(at, at + 1 + next(most)));
      at += chunk.length;
      for (const frame of reader.push(chunk)) {
        assert.ok(frame.kind === FrameKind.output);
        assert.equal(frame.handle, got.length);
        got.push(frame.data);
      }
    }
    assert.equal(got.length, sent.length, `chunks up to ${most}`);
    got.forEach((data, i) => assert.ok(data.equals(sent[i]!), `chunks up to ${most}: frame ${i}`));
  }
  const whole = Buffer.from(encodeData(FrameKind.output, 1, 'in one read'));
  assert.equal(new FrameReader().push(whole)[0]!.kind === FrameKind.output && (new FrameReader().push(whole)[0] as { data: Buffer }).data.buffer, whole.buffer);
});
