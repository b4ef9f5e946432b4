import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openRpcDocument } from '../../src/protocol/openrpc/document.ts';

// The wire convention of docs/protocol.md ("Wire style"): names are lowerCamelCase, methods and event
// kinds are `namespace.action`; values (error codes, states, rule ids) and data keys are not names.
const FIELD = /^[a-z][a-zA-Z0-9]*$/;
const DOTTED = /^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)*$/;
const TWO_PART = /^[a-z][a-zA-Z0-9]*\.[a-z][a-zA-Z0-9]*$/;

type Schema = { properties?: Record<string, Schema>; items?: Schema | Schema[]; additionalProperties?: Schema | boolean; anyOf?: Schema[]; $ref?: string };

/** Every property name in a schema, with where it was found; keys of records (additionalProperties) are data. */
function fieldNames(schema: Schema | boolean | undefined, where: string, out: string[][]): void {
  if (!schema || typeof schema !== 'object') return;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    out.push([name, `${where}.${name}`]);
    fieldNames(property, `${where}.${name}`, out);
  }
  const items = Array.isArray(schema.items) ? schema.items : schema.items ? [schema.items] : [];
  for (const item of items) fieldNames(item, `${where}[]`, out);
  if (typeof schema.additionalProperties === 'object') fieldNames(schema.additionalProperties, `${where}{}`, out);
  for (const branch of schema.anyOf ?? []) fieldNames(branch, where, out);
}

describe('the wire style', () => {
  const document = openRpcDocument('test') as any;

  it('names every method namespace.action in lowerCamelCase', () => {
    const bad = (document.methods as { name: string }[]).map((m) => m.name).filter((name) => name !== 'rpc.discover' && !TWO_PART.test(name));
    assert.deepEqual(bad, []);
  });

  it('names every event kind namespace.action and every notification in dotted lowerCamelCase', () => {
    assert.deepEqual(Object.keys(document['x-events']).filter((kind) => !TWO_PART.test(kind)), []);
    assert.deepEqual((document['x-notifications'] as { name: string }[]).map((n) => n.name).filter((name) => !DOTTED.test(name)), []);
  });

  it('names every param, result field, event data field and notification field in lowerCamelCase', () => {
    const names: string[][] = [];
    for (const method of document.methods) {
      for (const param of method.params) {
        names.push([param.name, `${method.name} param ${param.name}`]);
        fieldNames(param.schema, `${method.name} param ${param.name}`, names);
      }
      fieldNames(method.result.schema, `${method.name} result`, names);
    }
    for (const [name, schema] of Object.entries(document.components.schemas)) fieldNames(schema as Schema, name, names);
    for (const notification of document['x-notifications']) fieldNames(notification.params, `${notification.name}`, names);
    for (const [kind, schema] of Object.entries(document['x-events'])) fieldNames(schema as Schema, `${kind} data`, names);
    assert.ok(names.length > 200, `walked only ${names.length} names`);
    assert.deepEqual(names.filter(([name]) => !FIELD.test(name!)).map(([, where]) => where), []);
  });

  it('catches a name that breaks it', () => {
    const names: string[][] = [];
    fieldNames({ properties: { fine: { properties: { timeout_ms: {} } } } }, 'x', names);
    assert.deepEqual(names.filter(([name]) => !FIELD.test(name!)).map(([, where]) => where), ['x.fine.timeout_ms']);
  });
});
