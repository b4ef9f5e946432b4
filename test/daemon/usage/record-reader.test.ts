// Usage read from the agents' own records (docs/usage.md): each format's fixture sums to what its
// expected.json says, appended lines are read and nothing twice, and a read is bounded.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RECORD_FORMATS } from '../../../src/daemon/usage/record-formats.ts';
import { MAX_RECORD_LINE, READ_CHUNK, RecordTail } from '../../../src/daemon/usage/record-tail.ts';
import { RecordTracker } from '../../../src/daemon/usage/record-tracker.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/usage/', import.meta.url));
const expected = JSON.parse(readFileSync(join(FIXTURES, 'expected.json'), 'utf8')) as Record<string, { lines_skipped: number; models: Record<string, unknown>; model: string }>;
const label = { name: null, workspace: 'default', agent: null };

async function readAll(tracker: RecordTracker): Promise<void> {
  while ((await tracker.read(Date.now)).outcome === 'more');
}

describe('agent record readers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corral-usage-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const format of RECORD_FORMATS) {
    it(`sums ${format}'s record per model as expected.json says`, async () => {
      const tracker = new RecordTracker('p1', format, join(FIXTURES, `${format}.jsonl`), Date.now(), label);
      await readAll(tracker);
      assert.deepEqual(Object.fromEntries(tracker.ledger.models), expected[format]!.models);
      assert.equal(tracker.ledger.model, expected[format]!.model);
      assert.equal(tracker.tail.skipped, expected[format]!.lines_skipped);
    });
  }

  it('reads only what was appended, a line once it is whole, and starts over on another file at the path', async () => {
    const path = join(dir, 'growing.jsonl');
    const source = readFileSync(join(FIXTURES, 'claude.jsonl'), 'utf8');
    const whole = source.slice(0, source.lastIndexOf('\n') + 1);
    const cut = whole.length - 40; // inside the last whole line
    writeFileSync(path, whole.slice(0, cut));
    const tracker = new RecordTracker('p1', 'claude', path, Date.now(), label);
    await readAll(tracker);
    const early = structuredClone(Object.fromEntries(tracker.ledger.models));
    assert.equal(early['claude-haiku-4-5-20251001'], undefined, 'the half-written last line is not read yet');
    appendFileSync(path, whole.slice(cut));
    await readAll(tracker);
    assert.deepEqual(Object.fromEntries(tracker.ledger.models), expected['claude']!.models, 'the rest, appended, completes it without counting twice');
    truncateSync(path, 0);
    appendFileSync(path, whole.slice(0, cut));
    await readAll(tracker);
    assert.deepEqual(Object.fromEntries(tracker.ledger.models), early, 'a record cut short is counted afresh from its start');
    appendFileSync(path, whole.slice(cut));
    await readAll(tracker);
    assert.deepEqual(Object.fromEntries(tracker.ledger.models), expected['claude']!.models, 'and read on as it grows again');
  });

  it('skips and counts a line over the bound, and reads the lines after it', async () => {
    const path = join(dir, 'overlong.jsonl');
    const line = (id: string, tokens: number) => JSON.stringify({ type: 'assistant', requestId: id, message: { id, model: 'm', usage: { input_tokens: tokens, output_tokens: 1 } } });
    const huge = JSON.stringify({ type: 'assistant', message: { id: 'big', model: 'm', usage: { input_tokens: 5 }, content: 'x'.repeat(MAX_RECORD_LINE + 10) } });
    writeFileSync(path, `${line('a', 1)}\n${huge}\n${line('b', 2)}\nnot json but "usage"\n`);
    const tracker = new RecordTracker('p1', 'claude', path, Date.now(), label);
    await readAll(tracker);
    assert.deepEqual(tracker.ledger.models.get('m'), { input: 3, output: 2, cacheRead: 0, cacheWrite: 0 });
    assert.equal(tracker.tail.skipped, 2, 'the over-long line and the corrupt one');
  });

  it('reads a few MiB in bounded pieces: no read takes more than it was allowed, no line is held whole beyond the bound', async () => {
    const path = join(dir, 'large.jsonl');
    const turn = JSON.stringify({ type: 'user', message: { content: 'y'.repeat(8000) } }) + '\n';
    const usage = (n: number) => JSON.stringify({ type: 'assistant', requestId: `r${n}`, message: { id: `m${n}`, model: 'm', usage: { input_tokens: 1, output_tokens: 1 } } }) + '\n';
    let text = '';
    for (let n = 0; n < 500; n += 1) text += turn + usage(n);
    writeFileSync(path, text);
    const tail = new RecordTail(path);
    const limit = 4 * READ_CHUNK;
    let reads = 0;
    let lines = 0;
    let longest = 0;
    for (let outcome = 'more'; outcome === 'more'; reads += 1) {
      const before = tail.position.offset;
      outcome = await tail.read((line) => {
        lines += 1;
        longest = Math.max(longest, line.length);
      }, limit);
      assert.ok(tail.position.offset - before <= limit, `one read took ${tail.position.offset - before} bytes`);
    }
    assert.equal(lines, 1000);
    assert.ok(reads >= Math.floor(text.length / limit), `read in ${reads} pieces`);
    assert.ok(longest < MAX_RECORD_LINE);
  });

  it('refuses a record that is not a regular file', async () => {
    const tracker = new RecordTracker('p1', 'claude', dir, Date.now(), label);
    assert.equal((await tracker.read(Date.now)).outcome, 'absent');
  });
});
