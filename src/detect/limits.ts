/** The engine's own version; a manifest with a higher `min_engine_version` is refused. */
export const ENGINE_VERSION = 2;

/** Named limits on manifest complexity, so a bad or hostile file cannot make evaluation slow. */
export const LIMITS = {
  maxRulesPerManifest: 200,
  maxGateDepth: 4,
  maxMatchersPerRule: 64,
  maxPatternLength: 512,
  maxManifestBytes: 256 * 1024,
  maxRegionLines: 500,
  /** `truncation_min_prefix`: fewer characters than this say too little to stand for a phrase. */
  minTruncationPrefix: 3,
  maxTruncationPrefix: 200,
  /** `motion_within_ms` and `quiet_for_ms`: shorter than a frame is noise, longer than a minute is no longer motion. */
  minTimeWindowMs: 50,
  maxTimeWindowMs: 60_000,
} as const;
