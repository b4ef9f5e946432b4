import { defineMethod, returns } from '../method.ts';
import { Type } from '@sinclair/typebox';
import { STRICT } from '../schema.ts';

/** An OpenRPC document (https://spec.open-rpc.org), as `rpc.discover` answers it. */
export interface OpenRpcDocument {
  openrpc: string;
  info: { title: string; version: string; description?: string };
  methods: unknown[];
  components?: Record<string, unknown>;
  [extension: `x-${string}`]: unknown;
}

export const RPC_DISCOVER = defineMethod({
  name: 'rpc.discover',
  summary: 'The OpenRPC document of this protocol: every method, its params, result and errors, and every notification and event.',
  params: Type.Object({}, STRICT),
  result: returns<OpenRpcDocument>(),
  errors: [],
});
