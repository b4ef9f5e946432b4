/** Why config.toml was refused; the daemon does not start on it. Never on the wire. */
export class ConfigError extends Error {
  readonly code = 'config_invalid';

  constructor(
    readonly file: string,
    readonly line: number | null,
    problem: string,
  ) {
    super(`${file}${line !== null ? `:${line}` : ''}: ${problem}; fix it or move the file away to run on the defaults (docs/config.md)`);
    this.name = 'ConfigError';
  }
}
