import { fileURLToPath } from 'node:url';

/**
 * The command line that runs this checkout's `corral`, for hooks the daemon installs. Resolved from
 * this file, which sits two folders deep both in src/ and in the bundle (dist/cli/).
 */
export function corralCommand(): string[] {
  return [process.execPath, fileURLToPath(new URL('../../bin/corral', import.meta.url))];
}
