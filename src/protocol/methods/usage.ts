import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../method.ts';
import { Literals, Nullable, STRICT } from '../schema.ts';
import { USAGE_GROUPINGS, UsageRow } from '../usage.ts';

export const UsageReport = Type.Object(
  {
    since: Type.Number({ description: 'The start of the sums (ms since the epoch), whole hours: the hour holding it counts.' }),
    by: Literals(USAGE_GROUPINGS),
    rows: Type.Array(UsageRow),
    currency: Nullable(Type.String()),
    prices: Nullable(Type.String({ description: 'The price table version the costs are figured by.' })),
    unknown: Type.Number({ description: 'Running agents whose usage is unknown: Corral knows no record of theirs, and they are in no row.' }),
  },
  { $id: 'UsageReport', description: "What this daemon's agents spent since a time, summed by agent, workspace, host or model." },
);
export type UsageReport = Static<typeof UsageReport>;

export const USAGE_REPORT = defineMethod({
  name: 'usage.report',
  summary: "What the agents spent since a time (default the last 24 hours), from their own records, summed by agent, workspace, host or model.",
  params: Type.Object({
    since: Type.Optional(Type.Number({ minimum: 0, description: 'ms since the epoch; default 24 hours ago' })),
    by: Type.Optional(Literals(USAGE_GROUPINGS, { description: 'Default agent.' })),
  }, STRICT),
  result: UsageReport,
  errors: ['invalid_params'],
});
