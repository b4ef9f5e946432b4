import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrameDecoder, MAX_FRAME_BYTES } from '../../src/protocol/framing.ts';

const CHUNK = 64 * 1024; // what a pipe or a socket hands over at once

describe('the bounded NDJSON reader', () => {
  it('splits lines across chunks, drops a trailing \\r and skips blank lines', () => {
    const decoder = new FrameDecoder();
    assert.deepEqual(decoder.push(Buffer.from('{"a":1}\r\n\n{"b"')), { frames: ['{"a":1}'], overflow: false });
    assert.deepEqual(decoder.push(Buffer.from(':2}\n  \n')), { frames: ['{"b":2}'], overflow: false });
    assert.equal(decoder.buffered, 0);
  });

  it('joins a character whose bytes arrive in two chunks', () => {
    const decoder = new FrameDecoder();
    const bytes = Buffer.from('"é€"\n');
    assert.deepEqual(decoder.push(bytes.subarray(0, 2)).frames, []);
    assert.deepEqual(decoder.push(bytes.subarray(2)).frames, ['"é€"']);
  });

  it('takes a line of exactly the bound, and refuses one byte more', () => {
    const exact = new FrameDecoder();
    assert.deepEqual(exact.push(Buffer.concat([Buffer.alloc(MAX_FRAME_BYTES, 'x'), Buffer.from('\n')])).frames.map((frame) => frame.length), [MAX_FRAME_BYTES]);
    const over = new FrameDecoder();
    assert.equal(over.push(Buffer.concat([Buffer.alloc(MAX_FRAME_BYTES + 1, 'x'), Buffer.from('\n')])).overflow, true);
  });

  it('refuses a line without end as soon as it passes the bound, never holding more than the bound', () => {
    const decoder = new FrameDecoder();
    let pushed = 0;
    let overflow = false;
    while (!overflow && pushed < 256 * MAX_FRAME_BYTES) {
      overflow = decoder.push(Buffer.alloc(CHUNK, 'x')).overflow;
      pushed += CHUNK;
      assert.ok(decoder.buffered <= MAX_FRAME_BYTES, `holds ${decoder.buffered} bytes`);
    }
    assert.equal(overflow, true);
    assert.equal(pushed, MAX_FRAME_BYTES + CHUNK, 'refused at the first chunk past the bound');
    assert.equal(decoder.buffered, 0, 'what it held is let go');
  });

  it('is spent after an overflow: the rest of the stream is not read, frames that came before it are kept', () => {
    const decoder = new FrameDecoder(16);
    assert.deepEqual(decoder.push(Buffer.from('{"ok":1}\n0123456789abcdefXYZ\n{"late":1}\n')), { frames: ['{"ok":1}'], overflow: true });
    assert.deepEqual(decoder.push(Buffer.from('{"after":1}\n')), { frames: [], overflow: true });
  });

  it('refuses a long line that ends in the same chunk before joining it', () => {
    const decoder = new FrameDecoder(1024);
    const result = decoder.push(Buffer.concat([Buffer.alloc(4096, 'y'), Buffer.from('\n{"next":1}\n')]));
    assert.deepEqual(result, { frames: [], overflow: true });
  });
});
