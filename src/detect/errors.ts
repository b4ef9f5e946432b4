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

/**
 * A manifest that cannot be used, with a stable code and a message a person can act on: `problem`
 * prefixed with its position, or with `file` when it has none.
 */
export class ManifestError extends Error {
  readonly code: ManifestErrorCode;
  readonly position: SourcePosition | null;
  /** What is wrong, without the file or the position: for a list that names the file itself. */
  readonly problem: string;

  constructor(code: ManifestErrorCode, problem: string, position: SourcePosition | null = null, file: string | null = null) {
    super(position ? `${position.file}:${position.line}:${position.column}: ${problem}` : file !== null ? `${file}: ${problem}` : problem);
    this.name = 'ManifestError';
    this.code = code;
    this.position = position;
    this.problem = problem;
  }
}
