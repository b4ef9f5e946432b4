import { Type } from '@sinclair/typebox';
import { defineMethod } from '../method.ts';
import { STRICT } from '../schema.ts';

export const WEBHOOK_TEST = defineMethod({
  name: 'webhook.test',
  summary:
    'Post one test delivery (`kind: "test"`, no answer links) to `[notify.webhook]`, signed as every delivery, once with no retry, and say what the receiver answered: a 2xx is the result, anything else `webhook_failed`.',
  params: Type.Object({}, STRICT),
  result: Type.Object({
    receiver: Type.String({ description: "The receiver's origin (its path may hold a secret, so it is not shown)." }),
    delivery: Type.String({ description: 'The `X-Corral-Delivery` id it was posted with: `test-` and the time in ms.' }),
    status: Type.Integer({ description: "The receiver's HTTP status, 2xx." }),
    signed: Type.Boolean({ description: 'Whether it carried `X-Corral-Signature` (a `secret` is set).' }),
  }),
  errors: ['webhook_not_configured', 'webhook_failed'],
});
