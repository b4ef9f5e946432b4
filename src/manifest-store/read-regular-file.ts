import { ManifestError } from '../detect/errors.ts';
import { readRegularFileBytes, RegularFileError } from './regular-file.ts';

const CODES = {
  file_absent: 'manifest_read_failed',
  file_unreadable: 'manifest_read_failed',
  file_is_symlink: 'manifest_not_regular_file',
  file_not_regular: 'manifest_not_regular_file',
  file_too_large: 'manifest_limit_exceeded',
} as const;

/**
 * Reads a manifest file of at most `maxBytes` bytes as UTF-8, by the rules of regular-file.ts. A
 * symlink is followed to what it names, which must be a regular file too.
 */
export function readRegularFile(file: string, maxBytes: number): string {
  try {
    return readRegularFileBytes(file, maxBytes, { followSymlink: true, what: 'manifest' }).bytes.toString('utf8');
  } catch (error) {
    if (error instanceof RegularFileError) throw new ManifestError(CODES[error.code], error.problem, null, error.file);
    throw error;
  }
}
