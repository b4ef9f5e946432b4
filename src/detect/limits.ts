/** The engine's own version; a manifest with a higher `min_engine_version` is refused. */
export const ENGINE_VERSION = 1;

/** Named limits on manifest complexity, so a bad or hostile file cannot make evaluation slow. */
export const LIMITS = {
  maxRulesPerManifest: 200,
  maxGateDepth: 4,
  maxMatchersPerRule: 64,
  maxPatternLength: 512,
  maxManifestBytes: 256 * 1024,
  maxRegionLines: 500,
} as const;
