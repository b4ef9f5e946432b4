import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../method.ts';
import { STRICT } from '../schema.ts';

/** An OpenRPC document (https://spec.open-rpc.org), as `rpc.discover` answers it; extensions are named `x-...`. */
export const OpenRpcDocument = Type.Intersect([
  Type.Object({
    openrpc: Type.String(),
    info: Type.Object({ title: Type.String(), version: Type.String(), description: Type.Optional(Type.String()) }),
    methods: Type.Array(Type.Unknown()),
    components: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  }),
  Type.Record(Type.TemplateLiteral('x-${string}'), Type.Unknown()),
]);
export type OpenRpcDocument = Static<typeof OpenRpcDocument>;

export const RPC_DISCOVER = defineMethod({
  name: 'rpc.discover',
  summary: 'The OpenRPC document of this protocol: every method, its params, result and errors, and every notification and event.',
  params: Type.Object({}, STRICT),
  result: OpenRpcDocument,
  errors: [],
});
