import { defineMethod } from '../method.ts';
import { Type, type Static } from '@sinclair/typebox';
import { Literals, STRICT } from '../schema.ts';

export const ManifestEntry = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    version: Type.String(),
    source: Type.String(), // bundled, catalog:<origin>, user:<path>
    layer: Literals(['bundled', 'catalog', 'user']),
    file: Type.String(),
    shadowed: Type.Array(Type.Object({ version: Type.String(), source: Type.String() })),
  },
  { $id: 'ManifestEntry' },
);
export type ManifestEntry = Static<typeof ManifestEntry>;

export const ManifestProblem = Type.Object(
  { file: Type.String(), code: Type.String(), message: Type.String(), line: Type.Optional(Type.Number()), column: Type.Optional(Type.Number()) },
  { $id: 'ManifestProblem' },
);
export type ManifestProblem = Static<typeof ManifestProblem>;

export const ManifestsResult = Type.Object({
  manifests: Type.Array(ManifestEntry),
  errors: Type.Array(ManifestProblem), // files that failed to load; the rules they would have replaced stay in use
});
export type ManifestsResult = Static<typeof ManifestsResult>;

export const SERVER_MANIFESTS = defineMethod({
  name: 'server.manifests',
  summary: 'The agent manifests in use, their versions and sources, and files that failed to load.',
  params: Type.Object({}, STRICT),
  result: ManifestsResult,
  errors: [],
});

export const SERVER_RELOAD_MANIFESTS = defineMethod({
  name: 'server.reloadManifests',
  summary: 'Reload manifests from every source, atomically; a broken file never replaces working rules.',
  params: Type.Object({}, STRICT),
  result: ManifestsResult,
  errors: [],
});
