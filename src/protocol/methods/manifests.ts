import { defineMethod, returns } from '../method.ts';
import { Type } from '@sinclair/typebox';
import { STRICT } from '../schema.ts';

export interface ManifestEntry {
  id: string;
  name: string;
  version: string;
  source: string; // bundled, catalog:<origin>, user:<path>
  layer: 'bundled' | 'catalog' | 'user';
  file: string;
  shadowed: { version: string; source: string }[];
}

export interface ManifestProblem {
  file: string;
  code: string;
  message: string;
  line?: number;
  column?: number;
}

export interface ManifestsResult {
  manifests: ManifestEntry[];
  errors: ManifestProblem[]; // files that failed to load; the rules they would have replaced stay in use
}

export const SERVER_MANIFESTS = defineMethod({
  name: 'server.manifests',
  summary: 'The agent manifests in use, their versions and sources, and files that failed to load.',
  params: Type.Object({}, STRICT),
  result: returns<ManifestsResult>(),
  errors: [],
});

export const SERVER_RELOAD_MANIFESTS = defineMethod({
  name: 'server.reloadManifests',
  summary: 'Reload manifests from every source, atomically; a broken file never replaces working rules.',
  params: Type.Object({}, STRICT),
  result: returns<ManifestsResult>(),
  errors: [],
});
