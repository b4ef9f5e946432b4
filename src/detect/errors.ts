/** Where in a manifest file a problem sits (1-based line and column). */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

export type ManifestErrorCode =
  | 'manifest_syntax'
  | 'manifest_unknown_key'
  | 'manifest_invalid_value'
  | 'manifest_bad_regex'
  | 'manifest_limit_exceeded'
  | 'manifest_engine_too_old'
  | 'manifest_duplicate_rule'
  | 'manifest_read_failed'
  | 'manifest_not_regular_file';

/** A manifest that cannot be used, with a stable code and a message a person can act on. */
export class ManifestError extends Error {
  readonly code: ManifestErrorCode;
  readonly position: SourcePosition | null;

  constructor(code: ManifestErrorCode, message: string, position: SourcePosition | null = null) {
    super(position ? `${position.file}:${position.line}:${position.column}: ${message}` : message);
    this.name = 'ManifestError';
    this.code = code;
    this.position = position;
  }
}
