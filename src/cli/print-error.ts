import { CommanderError } from 'commander';
import { CorralError } from '../protocol/errors.ts';
import { ClientError } from './with-daemon.ts';
import { EXIT, exitCodeFor } from './exit-codes.ts';

/**
 * The one place the CLI turns an error into text on stderr and an exit code. Every error here
 * already says what to do next; unknown errors are bugs and print their stack.
 */
export function reportError(error: unknown, json: boolean): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage; // commander printed it
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (json) {
    process.stderr.write(`${JSON.stringify({ error: { code, message } })}\n`);
  } else {
    process.stderr.write(`corral: ${message} [${code}]\n`);
    if (code === 'internal_error' && !(error instanceof CorralError) && error instanceof Error) {
      process.stderr.write(`${error.stack}\n`);
    }
  }
  return exitCodeFor(code);
}

function codeOf(error: unknown): string {
  if (error instanceof CorralError || error instanceof ClientError) return error.code;
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[a-z_]+$/.test(code) ? code : 'internal_error';
}

/** A usage error found after commander parsed the line (e.g. a malformed --env). */
export class UsageError extends Error {
  readonly code = 'usage';
}
