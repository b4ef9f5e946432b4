import { ERRORS, type ErrorCode } from '../errors.ts';
import { EVENT_DATA, EVENT_KINDS } from '../methods/events.ts';
import { ALL_METHODS, ALL_NOTIFICATIONS } from '../methods/index.ts';
import type { OpenRpcDocument } from '../methods/discover.ts';
import { PROTOCOL_MINOR, PROTOCOL_VERSION } from '../version.ts';
import { Published } from './published.ts';

export const OPENRPC_VERSION = '1.3.2';

/** Errors any method can answer with, whatever it declares (docs/protocol.md, "Errors"). */
export const GENERIC_ERRORS: readonly ErrorCode[] = ['invalid_params', 'internal_error', 'shutting_down'];

type JsonSchema = Record<string, unknown>;

function errorObject(code: ErrorCode) {
  return { code: ERRORS[code].rpc, message: ERRORS[code].summary, data: { code } };
}

function paramsOf(schema: JsonSchema): { name: string; schema: JsonSchema; required: boolean }[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, schema: property, required: required.has(name) }));
}

/**
 * The OpenRPC document `rpc.discover` answers, built from the declarations: params, results,
 * notifications and events from their schemas (named ones become components), errors from ERRORS.
 * Notifications and events ride in the `x-notifications` and `x-events` extensions.
 */
export function openRpcDocument(packageVersion: string): OpenRpcDocument {
  const published = new Published();
  const methods = ALL_METHODS.map((method) => ({
    name: method.name,
    summary: method.summary,
    paramStructure: 'by-name',
    params: paramsOf(published.schema(method.params)),
    result: { name: 'result', schema: published.schema(method.result) },
    errors: [...new Set([...method.errors, ...GENERIC_ERRORS])].map(errorObject),
  }));
  const notifications = ALL_NOTIFICATIONS.map((notification) => ({
    name: notification.name,
    summary: notification.summary,
    params: published.schema(notification.params),
  }));
  const events = Object.fromEntries(
    EVENT_KINDS.map((kind) => [kind, published.schema(EVENT_DATA[kind])]),
  );
  return {
    openrpc: OPENRPC_VERSION,
    info: {
      title: 'Corral daemon protocol',
      version: `${PROTOCOL_VERSION}.${PROTOCOL_MINOR}.0`,
      description: `JSON-RPC 2.0 over a Unix socket, one message per line (docs/protocol.md). Daemon ${packageVersion}.`,
    },
    methods,
    components: {
      schemas: published.components(),
      errors: Object.fromEntries(Object.keys(ERRORS).map((code) => [code, errorObject(code as ErrorCode)])),
    },
    'x-notifications': notifications,
    'x-events': events,
  };
}
