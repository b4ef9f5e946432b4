/** The detection layer's public surface: pure engine, identity, and the manifest sources the daemon holds. */
export type { DetectInput, ManifestRef, Verdict, VisibleFlags } from './types.ts';
export type { CompiledManifest } from './compiled.ts';
export { ENGINE_VERSION, LIMITS } from './limits.ts';
export { ManifestError, type ManifestErrorCode, type SourcePosition } from './errors.ts';
export { parseManifest, type ManifestOrigin } from './parse.ts';
export { evaluate } from './evaluate.ts';
export { explain, type Explain, type EvaluatedRule } from './explain.ts';
export { compareVersions } from './version.ts';
export { identifyAgent, matchMember, type IdentityMatch } from './identity.ts';
export { CHILD_GROUPS, PROCESS_DETECTION_ENV, childGroupsEnabled, inferForegroundFromChildGroups } from './child-groups.ts';
export { ManifestSet, defaultCatalogDir, defaultUserDir, type ManifestListing, type ManifestSetOptions } from './manifest-set.ts';
export { BUNDLED_MANIFEST_DIR, loadManifestFile, type ManifestLoadError } from './loader.ts';
export { installFromCatalog, type CatalogInstallResult, type CatalogOutcome } from './catalog.ts';
