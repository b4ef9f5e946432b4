import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AsciicastRecorder, outputBytes, parseAsciicast } from '../../src/terminal/asciicast.ts';
import { captureFrom, truncateCapture } from '../../src/cli/offline/capture.ts';

describe('asciicast captures', () => {
  it('record output with its times, and give back the same bytes', () => {
    const cast = new AsciicastRecorder({ width: 80, height: 24, startedAt: 1_000_000 });
    const bytes = Buffer.from('ready ✻ done\r\n', 'utf8');
    const split = bytes.indexOf(Buffer.from('✻')) + 1; // a PTY read that ends inside a character
    cast.output(bytes.subarray(0, split), 1_000_250);
    cast.output(bytes.subarray(split), 1_000_500);
    cast.marker('01-idle', 1_000_600);
    assert.equal(cast.bytes, bytes.length);
    const parsed = parseAsciicast(cast.text());
    assert.deepEqual(parsed.events, [
      [0.25, 'o', 'ready '],
      [0.5, 'o', '✻ done\r\n'],
      [0.6, 'm', '01-idle'],
    ]);
    assert.deepEqual(outputBytes(parsed), bytes);
    assert.deepEqual([parsed.header.width, parsed.header.height, parsed.header.timestamp], [80, 24, 1000]);
  });

  it('refuse a bad file with capture_invalid and the line at fault', () => {
    const header = '{"version": 2, "width": 80, "height": 24}';
    const cases: [string, RegExp][] = [
      ['', /no header/],
      ['{"version": 1, "width": 80, "height": 24}', /version must be 2/],
      ['{"version": 2, "width": 0, "height": 24}', /width must be an integer/],
      [`${header}\n[1, "o"]`, /line 2: an event must be/],
      [`${header}\n[1, "x", "a"]`, /line 2: the code must be/],
      [`${header}\n[2, "o", "a"]\n[1, "o", "b"]`, /line 3: time 1 goes back/],
      [`${header}\n[1, "r", "wide"]`, /COLSxROWS/],
      ['{"version": 2, "width": 80, "height": 24, "corral": {"timing": "guessed"}}', /corral.timing/],
    ];
    for (const [text, message] of cases) {
      assert.throws(() => parseAsciicast(text), (error: Error & { code?: string }) => error.code === 'capture_invalid' && message.test(error.message), text);
    }
  });

  it('read as a replay capture: times in ms, resizes kept, raw bytes untimed', () => {
    const text = '{"version": 2, "width": 80, "height": 24, "corral": {"timing": "synthetic"}}\n[0.5, "o", "ab"]\n[0.75, "r", "100x30"]\n[1.25, "o", "cd"]\n[1.5, "i", "x"]\n';
    const capture = captureFrom(Buffer.from(text));
    assert.deepEqual([capture.cols, capture.rows, capture.timing, capture.length], [80, 24, 'synthetic', 4]);
    assert.deepEqual(capture.chunks.map((c) => [c.kind, c.at]), [['output', 500], ['resize', 750], ['output', 1250]]);
    assert.equal(truncateCapture(capture, 3).length, 3);
    const raw = captureFrom(Buffer.from('plain bytes'));
    assert.deepEqual([raw.timing, raw.cols, raw.length], ['none', null, 11]);
  });
});
