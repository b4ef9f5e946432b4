import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ALL_METHODS } from '../../../src/protocol/methods/index.ts';
import { useDaemon } from '../../helpers/session.ts';

describe('every declared method', () => {
  const session = useDaemon();

  it('is served by the daemon: empty params give a params error or a result, never method_not_found', async () => {
    const unserved: string[] = [];
    for (const method of ALL_METHODS) {
      // Empty params: methods with required fields answer invalid_params, the others run. Only read-only
      // and harmless methods can succeed with no params (status, lists, reload, unsubscribe).
      const reply = await session.client.call(1, method.name, {});
      if (reply.error?.code === -32601) unserved.push(method.name);
      if (reply.error) assert.ok(typeof reply.error.data?.code === 'string', `${method.name}: ${JSON.stringify(reply.error)}`);
    }
    assert.deepEqual(unserved, []);
  });
});
