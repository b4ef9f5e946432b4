/** Bumped on any incompatible change to methods, params, results or framing; additions keep it. */
export const PROTOCOL_VERSION = 1;
