// The price table (docs/usage.md, "The price table"): the bundled one is valid, a bad one is refused
// naming what is wrong, a user's wins model by model, and a model without a price has no cost.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BUNDLED_PRICES } from '../../../src/daemon/bundled-prices.ts';
import { PriceTable, PriceTableError } from '../../../src/daemon/usage/price-table.ts';

const HEAD = 'version = "t1"\ndate = "2026-12-01"\ncurrency = "USD"\n';

describe('price table', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corral-prices-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('ships a valid table, dated and versioned, that prices the bundled agents\' usual models', () => {
    const table = PriceTable.load(BUNDLED_PRICES, null);
    assert.match(table.version, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(table.currency, 'USD');
    for (const model of ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101', 'gpt-5-codex', 'gemini-2.5-pro']) assert.notEqual(table.priceOf(model), null, model);
  });

  it('figures cost per million tokens, the longest prefix winning, and no price for an unknown model', () => {
    const table = PriceTable.parse(`${HEAD}[[models]]\nmatch = "m*"\ninput = 1.0\noutput = 2.0\ncache_read = 0.5\ncache_write = 4.0\n[[models]]\nmatch = "m-big*"\ninput = 10.0\noutput = 20.0\ncache_read = 5.0\ncache_write = 40.0\n`, 'p.toml');
    const tokens = { input: 1_000_000, output: 500_000, cacheRead: 2_000_000, cacheWrite: 250_000 };
    assert.equal(table.cost('m-small', tokens), 1 + 1 + 1 + 1);
    assert.equal(table.cost('m-big-2', tokens), 10 + 10 + 10 + 10);
    assert.equal(table.cost('other', tokens), null);
  });

  for (const [what, text, problem] of [
    ['an unknown key', `${HEAD}extra = 1\n`, /unknown key "extra"/],
    ['no date', 'version = "t"\ncurrency = "USD"\n', /"date"/],
    ['a negative price', `${HEAD}[[models]]\nmatch = "m"\ninput = -1.0\noutput = 0.0\ncache_read = 0.0\ncache_write = 0.0\n`, /models\[0\]\.input/],
    ['a missing price', `${HEAD}[[models]]\nmatch = "m"\ninput = 1.0\noutput = 0.0\ncache_read = 0.0\n`, /cache_write/],
    ['a match twice', `${HEAD}[[models]]\nmatch = "m"\ninput = 1.0\noutput = 0.0\ncache_read = 0.0\ncache_write = 0.0\n[[models]]\nmatch = "m"\ninput = 1.0\noutput = 0.0\ncache_read = 0.0\ncache_write = 0.0\n`, /listed twice/],
    ['a star inside a match', `${HEAD}[[models]]\nmatch = "a*b"\ninput = 1.0\noutput = 0.0\ncache_read = 0.0\ncache_write = 0.0\n`, /prefix ending in \*/],
  ] as const) {
    it(`refuses ${what}`, () => {
      assert.throws(() => PriceTable.parse(text, 'p.toml'), (error: unknown) => error instanceof PriceTableError && problem.test(error.problem));
    });
  }

  it("takes the user's table over the bundled one model by model, and names both versions", () => {
    const user = join(dir, 'prices.toml');
    writeFileSync(user, 'version = "mine"\ndate = "2026-12-02"\ncurrency = "USD"\n[[models]]\nmatch = "claude-sonnet-4*"\ninput = 100.0\noutput = 0.0\ncache_read = 0.0\ncache_write = 0.0\n[[models]]\nmatch = "mock-model"\ninput = 1.0\noutput = 1.0\ncache_read = 0.0\ncache_write = 0.0\n');
    const table = PriceTable.load(BUNDLED_PRICES, user);
    assert.match(table.version, /\+user\.mine$/);
    assert.equal(table.cost('claude-sonnet-4-5', { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 }), 100);
    assert.equal(table.cost('mock-model', { input: 1_000_000, output: 1_000_000, cacheRead: 0, cacheWrite: 0 }), 2);
    assert.notEqual(table.priceOf('gpt-5-codex'), null, 'the bundled prices stay for the rest');
  });
});
