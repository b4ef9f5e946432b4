import type { CompiledManifest } from '../../detect/compiled.ts';
import { ManifestSet } from '../../manifest-store/manifest-set.ts';
import { UsageError } from '../print-error.ts';

/** Offline commands read the same sources as the daemon; `bundledOnly` pins the shipped rules (conformance). */
export function offlineManifests(bundledOnly = false): ManifestSet {
  return bundledOnly ? new ManifestSet({ userDir: null, catalogDir: null }) : new ManifestSet();
}

export function requireManifest(set: ManifestSet, agent: string): CompiledManifest {
  const manifest = set.get(agent);
  if (manifest) return manifest;
  const known = set.list().manifests.map((entry) => entry.id).join(', ');
  const broken = set.errorsFor(agent).map((error) => `\n  ${error.message}`).join('');
  throw new UsageError(`no manifest for agent "${agent}"; known agents: ${known}${broken}`);
}
