import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FrameKind, FrameReader, MAX_HOST_FRAME_BYTES, encodeControl, encodeData } from '../../../src/terminal/host/wire.ts';

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
  assert.throws(() => new FrameReader().push(header), /outside 1\.\.16777216/);
});

test('a frame of an unknown kind is refused', () => {
  const frame = Buffer.from([0, 0, 0, 1, 99]);
  assert.throws(() => new FrameReader().push(frame), /unknown host frame kind 99/);
});
