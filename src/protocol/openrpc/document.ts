import { ERRORS, type ErrorCode } from '../errors.ts';
import { EVENT_KINDS } from '../methods/events.ts';
import { ALL_METHODS, ALL_NOTIFICATIONS } from '../methods/index.ts';
import type { OpenRpcDocument } from '../methods/discover.ts';
import type { JsonSchema } from '../validate.ts';
import { PROTOCOL_MINOR, PROTOCOL_VERSION } from '../version.ts';
import { WIRE_TYPES } from './wire-types.generated.ts';

export const OPENRPC_VERSION = '1.3.2';

/** Errors any method can answer with, whatever it declares (docs/protocol.md, "Errors"). */
export const GENERIC_ERRORS: readonly ErrorCode[] = ['invalid_params', 'internal_error', 'shutting_down'];

function errorObject(code: ErrorCode) {
  return { code: ERRORS[code].rpc, message: ERRORS[code].summary, data: { code } };
}

function paramsOf(schema: JsonSchema): { name: string; schema: JsonSchema; required: boolean }[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, schema: property, required: required.has(name) }));
}

function resultOf(name: string): JsonSchema {
  const schema = WIRE_TYPES.results[name];
  if (!schema) throw new Error(`no generated result schema for ${name}; run npm run schema:types`);
  return schema;
}

/**
 * The OpenRPC document `rpc.discover` answers, built from the method declarations: params from their
 * validators, results, notifications and events from the generated wire types, errors from ERRORS.
 * Notifications and events ride in the `x-notifications` and `x-events` extensions.
 */
export function openRpcDocument(packageVersion: string): OpenRpcDocument {
  const methods = ALL_METHODS.map((method) => ({
    name: method.name,
    summary: method.summary,
    paramStructure: 'by-name',
    params: paramsOf(method.params.schema ?? {}),
    result: { name: 'result', schema: resultOf(method.name) },
    errors: [...new Set([...method.errors, ...GENERIC_ERRORS])].map(errorObject),
  }));
  const notifications = ALL_NOTIFICATIONS.map((notification) => {
    const schema = WIRE_TYPES.notifications[notification.name];
    if (!schema) throw new Error(`no generated schema for notification ${notification.name}; run npm run schema:types`);
    return { name: notification.name, summary: notification.summary, params: schema };
  });
  const events = Object.fromEntries(
    EVENT_KINDS.map((kind) => {
      const schema = WIRE_TYPES.events[kind];
      if (!schema) throw new Error(`no generated schema for event ${kind}; run npm run schema:types`);
      return [kind, schema];
    }),
  );
  return {
    openrpc: OPENRPC_VERSION,
    info: {
      title: 'Corral daemon protocol',
      version: `${PROTOCOL_VERSION}.${PROTOCOL_MINOR}.0`,
      description: `JSON-RPC 2.0 over a Unix socket, one message per line (docs/protocol.md). Daemon ${packageVersion}.`,
    },
    methods,
    components: { schemas: WIRE_TYPES.components, errors: Object.fromEntries(Object.keys(ERRORS).map((code) => [code, errorObject(code as ErrorCode)])) },
    'x-notifications': notifications,
    'x-events': events,
  };
}
