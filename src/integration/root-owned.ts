import { realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Whether `path` and every folder above it belong to root and only root can write them (mode without
 * group or other write). Gemini CLI reads a system settings or system-defaults file only then, and
 * skips it with a security warning otherwise.
 */
export function isRootOwnedPath(path: string): boolean {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return false;
  }
  for (const start of new Set([path, real])) {
    for (let current = start; ; current = dirname(current)) {
      try {
        const stats = statSync(current);
        if (stats.uid !== 0 || (stats.mode & 0o022) !== 0) return false;
      } catch {
        return false;
      }
      if (dirname(current) === current) break;
    }
  }
  return true;
}
