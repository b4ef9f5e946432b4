/** Named limits on every field a report may carry; each has a test that exceeds it. */
export const REPORT_LIMITS = Object.freeze({
  /** A decoded self-report value (the user variable), in characters. */
  selfReportChars: 1024,
  sourceChars: 64,
  agentChars: 64,
  sessionChars: 256,
  messageChars: 4096, // as pane.reportAgent declares it
});

/** Agent ids are short stable identifiers: `claude`, `my-agent`, `custom.indexer`. */
export const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Sources are `kind:name` style labels: `hook:claude`, `plugin:opencode`, `custom:indexer`. */
export const SOURCE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
