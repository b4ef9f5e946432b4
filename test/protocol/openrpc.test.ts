import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import metaSchemaModule from '@open-rpc/meta-schema';
import jsonSchemaMetaModule from '@json-schema-tools/meta-schema';
import { ERRORS } from '../../src/protocol/errors.ts';
import { EVENT_KINDS } from '../../src/protocol/methods/events.ts';
import { ALL_METHODS, ALL_NOTIFICATIONS } from '../../src/protocol/methods/index.ts';
import { openRpcDocument } from '../../src/protocol/openrpc/document.ts';
import { useDaemon } from '../helpers/session.ts';

const unwrap = (module: unknown) => ((module as { default?: object }).default ?? module) as Record<string, unknown>;

/** The OpenRPC meta-schema, with the JSON Schema meta-schema it refers to, both from their packages. */
function validator() {
  // Both name their own dialect URI; ajv validates them as the draft-07 they are written in.
  const { $schema: _openRpcDialect, ...openRpc } = unwrap(metaSchemaModule);
  const { $schema: _jsonSchemaDialect, ...jsonSchema } = unwrap(jsonSchemaMetaModule);
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  // It is referred to both with and without the trailing slash of its $id.
  ajv.addSchema(jsonSchema);
  ajv.addSchema({ ...jsonSchema, $id: String(jsonSchema.$id).replace(/\/$/, '') });
  return ajv.compile(openRpc);
}

describe('the OpenRPC document', () => {
  const session = useDaemon();

  it('is what rpc.discover answers, and it is valid against the OpenRPC meta-schema', async () => {
    const reply = await session.client.call(1, 'rpc.discover', {});
    assert.equal(reply.error, undefined, JSON.stringify(reply.error));
    const validate = validator();
    const valid = validate(reply.result);
    assert.ok(valid, JSON.stringify(validate.errors, null, 2));
    assert.equal(reply.result.openrpc, '1.3.2');
    assert.match(reply.result.info.version, /^2\.\d+\.0$/);
  });

  it('every result, param, notification and event schema compiles as JSON Schema', () => {
    const document = openRpcDocument('test');
    const ajv = new Ajv({ strict: false });
    ajv.addSchema({ $id: 'corral', components: document.components }, 'corral');
    const compile = (schema: unknown) => ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"corral#/components')));
    for (const method of document.methods as { name: string; params: { schema: unknown }[]; result: { schema: unknown } }[]) {
      compile(method.result.schema);
      for (const param of method.params) compile(param.schema);
    }
    for (const notification of document['x-notifications'] as { params: unknown }[]) compile(notification.params);
    for (const data of Object.values(document['x-events'] as Record<string, unknown>)) compile(data);
  });

  it('lists every declared method with its declared errors, every notification and every event kind', () => {
    const document = openRpcDocument('test');
    const methods = document.methods as { name: string; errors: { code: number; data: { code: string } }[] }[];
    assert.deepEqual(methods.map((m) => m.name), ALL_METHODS.map((m) => m.name));
    for (const declared of ALL_METHODS) {
      const listed = methods.find((m) => m.name === declared.name)!;
      for (const code of declared.errors) {
        assert.ok(listed.errors.some((e) => e.data.code === code && e.code === ERRORS[code].rpc), `${declared.name} lists ${code}`);
      }
    }
    assert.deepEqual((document['x-notifications'] as { name: string }[]).map((n) => n.name), ALL_NOTIFICATIONS.map((n) => n.name));
    assert.deepEqual(Object.keys(document['x-events'] as object), [...EVENT_KINDS]);
  });

  it('describes params from the declarations: required fields, limits and enums', () => {
    const spawn = (openRpcDocument('test').methods as { name: string; params: { name: string; required: boolean; schema: any }[] }[]).find(
      (m) => m.name === 'pane.spawn',
    )!;
    const command = spawn.params.find((p) => p.name === 'command')!;
    assert.deepEqual([command.required, command.schema.type, command.schema.minLength], [true, 'string', 1]);
    assert.equal(spawn.params.find((p) => p.name === 'cols')!.required, false);
  });

  it('every method the daemon serves is in it: the daemon refuses to serve an undeclared method', async () => {
    const reply = await session.client.call(2, 'rpc.discover', {});
    const listed = new Set((reply.result.methods as { name: string }[]).map((m) => m.name));
    for (const method of ALL_METHODS) assert.ok(listed.has(method.name), method.name);
    const { RpcServer } = await import('../../src/daemon/rpc/rpc-server.ts');
    const { implement } = await import('../../src/daemon/rpc/handler.ts');
    const { defineMethod } = await import('../../src/protocol/method.ts');
    const { Type } = await import('@sinclair/typebox');
    const { STRICT } = await import('../../src/protocol/schema.ts');
    const stray = defineMethod({ name: 'pane.stray', summary: 'not declared', params: Type.Object({}, STRICT), result: Type.Null(), errors: [] });
    const server = new RpcServer({ error() {} } as never);
    assert.throws(() => server.register([implement(stray, () => null)]), /not declared/);
  });
});
