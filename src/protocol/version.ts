/**
 * The protocol's version, MAJOR.MINOR (docs/protocol.md, "Versions"): an incompatible change to a
 * method, param, result, event or the framing bumps MAJOR; an addition (a method, an optional param,
 * a result field, an event kind) bumps MINOR. Clients refuse or warn on another MAJOR, never on MINOR.
 */
export const PROTOCOL_VERSION = 2;
export const PROTOCOL_MINOR = 9;
