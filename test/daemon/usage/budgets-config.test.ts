// `[[budgets]]` in config.toml (docs/usage.md, "Budgets"): checked strictly, each problem naming its line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, parseConfig } from '../../../src/daemon/config/index.ts';

describe('budgets in config.toml', () => {
  it('reads budgets of each scope and period, named by their name or their scope and period', () => {
    const config = parseConfig('[[budgets]]\nscope = "agent"\nperiod = "day"\ntokens = 1000\n\n[[budgets]]\nname = "team"\nscope = "workspace"\nmatch = "api"\nperiod = "week"\nmoney = 25.5\n', 'c.toml');
    assert.deepEqual(config.budgets, [
      { name: 'agent/day', scope: 'agent', match: null, period: 'day', tokens: 1000, money: null },
      { name: 'team', scope: 'workspace', match: 'api', period: 'week', tokens: null, money: 25.5 },
    ]);
    assert.deepEqual(parseConfig('', 'c.toml').budgets, []);
  });

  for (const [what, text, problem, line] of [
    ['both limits', '[[budgets]]\nscope = "host"\nperiod = "day"\ntokens = 1\nmoney = 1.0\n', /exactly one of "tokens" or "money"/, 1],
    ['an unknown scope', '[notify]\n\n[[budgets]]\nscope = "planet"\nperiod = "day"\ntokens = 1\n', /"scope" must be one of/, 3],
    ['an unknown key', '[[budgets]]\nscope = "agent"\nperiod = "day"\ntokens = 1\n[[budgets]]\nscope = "agent"\nperiod = "session"\ntokens = 1\nlimit = 2\n', /budgets\[1\]: unknown key "limit"/, 5],
    ['a match on the host scope', '[[budgets]]\nscope = "host"\nmatch = "x"\nperiod = "day"\ntokens = 1\n', /"match" applies/, 1],
    ['two budgets of one name', '[[budgets]]\nscope = "agent"\nperiod = "day"\ntokens = 1\n[[budgets]]\nscope = "agent"\nperiod = "day"\ntokens = 2\n', /another budget is named "agent\/day"/, 5],
  ] as const) {
    it(`refuses ${what}, naming the line`, () => {
      assert.throws(() => parseConfig(text, 'c.toml'), (error: unknown) => error instanceof ConfigError && problem.test(error.message) && error.line === line);
    });
  }
});
