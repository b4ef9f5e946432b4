/** An error of the terminal layer, with a stable snake_case code the daemon maps to the wire. */
export class TerminalError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'TerminalError';
    this.code = code;
  }
}
