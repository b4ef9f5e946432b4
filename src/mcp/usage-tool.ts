import type { CorralClient } from '../client/index.ts';
import type { UsageGrouping } from '../protocol/usage.ts';

/** What the agents spent, for a model that runs them (a `Tool` of tools.ts; docs/usage.md). */
export const AGENT_USAGE = {
  name: 'agent_usage',
  description:
    'What the agents on this machine spent, read from their own records (transcripts), since some hours ago: tokens ' +
    '(input, output, cacheRead, cacheWrite) and cost in the price table\'s currency, summed by "agent" (the default), ' +
    '"workspace", "host" or "model". Returns {since, by, rows: [{key, label, tokens, cost, unpriced}], currency, prices, ' +
    'unknown}; cost is null ("no price") when the table has no price for a model, and `unknown` counts running agents ' +
    'whose spend Corral cannot read (they are in no row; never count them as zero). An agent over a budget refuses ' +
    'prompt_agent with budget_exceeded.',
  inputSchema: {
    type: 'object' as const,
    properties: {
      hours: { type: 'number', minimum: 1, maximum: 8784, description: 'How far back, in hours (default 24).' },
      by: { type: 'string', enum: ['agent', 'workspace', 'host', 'model'], description: 'What a row sums (default agent).' },
    },
    additionalProperties: false,
  },
  async run(client: CorralClient, args: Record<string, any>) {
    const hours = typeof args.hours === 'number' ? args.hours : 24;
    return client.call('usage.report', { since: Date.now() - hours * 3_600_000, ...(typeof args.by === 'string' ? { by: args.by as UsageGrouping } : {}) });
  },
};
