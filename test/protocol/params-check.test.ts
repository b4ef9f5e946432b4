import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import { CorralError } from '../../src/protocol/errors.ts';
import type { MethodDecl } from '../../src/protocol/method.ts';
import { AGENT_ANSWER, AGENT_WAIT, ALL_METHODS, PANE_READ, PANE_RESIZE, PANE_SPAWN, SERVER_STATUS } from '../../src/protocol/methods/index.ts';
import { checkParams } from '../../src/protocol/params-check.ts';
import { WEB_METHODS } from '../../src/web/wire.ts';

function refusal(method: MethodDecl<any, any>, params: unknown, root = ''): [string, string] {
  try {
    checkParams(method, params, root);
  } catch (error) {
    assert.ok(error instanceof CorralError && error.code === 'invalid_params', String(error));
    return [error.message, error.details.field as string];
  }
  assert.fail(`${method.name} accepted ${JSON.stringify(params)}`);
}

describe('checking params against their declaration', () => {
  it('returns the params when they fit, and takes absent params as {}', () => {
    const params = { target: 'w1:p1', cols: 80, rows: 24 };
    assert.equal(checkParams(PANE_RESIZE, params), params);
    assert.deepEqual(checkParams(SERVER_STATUS, undefined), {});
  });

  it('refuses with invalid_params naming the field, an unknown field first', () => {
    const cases: [MethodDecl<any, any>, unknown, string, string][] = [
      [PANE_RESIZE, { target: 'w1:p1', rows: 10 }, '"cols" is required', 'cols'],
      [PANE_RESIZE, { target: 'w1:p1', cols: 'wide', rows: 10 }, '"cols" must be an integer from 2 to 1000', 'cols'],
      [PANE_RESIZE, { target: 5, rows: 10, depth: 3 }, '"depth" is not a known field', 'depth'],
      [PANE_RESIZE, [1, 2], 'params must be an object', ''],
      [PANE_RESIZE, { target: '', cols: 80, rows: 24 }, '"target" must be a non-empty string', 'target'],
      [PANE_RESIZE, { target: 'x'.repeat(129), cols: 80, rows: 24 }, '"target" must be at most 128 characters', 'target'],
      [PANE_SPAWN, { command: 'sh', args: ['ok', 7] }, '"args[1]" must be a string', 'args[1]'],
      [PANE_SPAWN, { command: 'sh', cwd: 'relative' }, '"cwd" must be an absolute path', 'cwd'],
      [PANE_SPAWN, { command: 'sh', name: '-x' }, '"name" must be letters, digits, ".", "_" or "-", starting with a letter or digit', 'name'],
      [PANE_SPAWN, { command: 'sh', env: { '1BAD': 'x' } }, '"env.1BAD" is not a valid key (/^[A-Za-z_][A-Za-z0-9_]*$/)', 'env.1BAD'],
      [PANE_SPAWN, { command: 'sh', env: { GOOD: 1 } }, '"env.GOOD" must be a string', 'env.GOOD'],
      [PANE_SPAWN, { command: 'sh', caller: { cwd: '/', shell: 'bash' } }, '"caller.shell" is not a known field', 'caller.shell'],
      [PANE_SPAWN, { command: 'sh', integrate: 'yes' }, '"integrate" must be true or false', 'integrate'],
      [AGENT_WAIT, { targets: [] }, '"targets" must name at least one pane, or be left out with allAgents', 'targets'],
      [AGENT_WAIT, { targets: Array(65).fill('a') }, '"targets" must be an array of at most 64 items', 'targets'],
      [AGENT_WAIT, { until: ['sleeping'] }, '"until[0]" must be one of idle, working, blocked, done, unknown', 'until[0]'],
      [PANE_READ, { target: 'a', source: 'screens' }, '"source" must be one of screen, scrollback', 'source'],
      [AGENT_ANSWER, { target: 'a', choice: 'x'.repeat(65) }, '"choice" must be at most 64 characters', 'choice'],
      [AGENT_ANSWER, { target: 'a', choice: 100 }, '"choice" must be an integer from 0 to 99', 'choice'],
      [AGENT_ANSWER, { target: 'a', choice: true }, '"choice" must be a string or an integer from 0 to 99', 'choice'],
    ];
    for (const [method, params, message, field] of cases) assert.deepEqual(refusal(method, params), [message, field], JSON.stringify(params));
  });

  it('names the params object after a root, as the web view does', () => {
    assert.deepEqual(refusal(PANE_RESIZE, 'x', 'params'), ['"params" must be an object', 'params']);
    assert.deepEqual(refusal(PANE_RESIZE, { target: 'a', rows: 3 }, 'params'), ['"params.cols" is required', 'params.cols']);
  });

  it('gives every param a limit: strings a length, arrays and records a count, integers a range', () => {
    const unbounded: string[] = [];
    const walk = (schema: TSchema, where: string): void => {
      if (schema.type === 'string' && schema.maxLength === undefined && schema.const === undefined) unbounded.push(where);
      if (schema.type === 'integer' && (schema.minimum === undefined || schema.maximum === undefined)) unbounded.push(where);
      if (schema.type === 'array' && schema.maxItems === undefined) unbounded.push(where);
      if (schema.patternProperties && schema.maxProperties === undefined) unbounded.push(where);
      if (schema.type === 'object' && !schema.patternProperties && schema.additionalProperties !== false) unbounded.push(`${where} (not strict)`);
      for (const [key, value] of Object.entries(schema.properties ?? {})) walk(value as TSchema, `${where}.${key}`);
      for (const value of Object.values(schema.patternProperties ?? {})) walk(value as TSchema, `${where}{}`);
      if (schema.items) walk(schema.items, `${where}[]`);
      for (const branch of schema.anyOf ?? []) walk(branch, where);
    };
    for (const method of [...ALL_METHODS, ...WEB_METHODS]) walk(method.params, method.name);
    assert.deepEqual(unbounded, []);
  });
});
