import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CompiledManifest } from '../detect/compiled.ts';
import { ManifestError } from '../detect/errors.ts';
import { LIMITS } from '../detect/limits.ts';
import { parseManifest } from '../detect/parse.ts';
import { readRegularFile } from './read-regular-file.ts';

/** The manifests shipped with Corral. */
export const BUNDLED_MANIFEST_DIR = fileURLToPath(new URL('../../manifests/', import.meta.url));

/** A file that could not be used, and which working manifest stayed in its place. */
export interface ManifestLoadError {
  file: string;
  id: string | null; // the id written in the file, when it can be read
  code: string;
  message: string;
  line: number | null;
  column: number | null;
}

export interface DirectoryLoad {
  manifests: { manifest: CompiledManifest; file: string; text: string }[];
  errors: ManifestLoadError[];
}

/** Reads one manifest file: a regular file of at most LIMITS.maxManifestBytes (read-regular-file.ts). */
export function loadManifestFile(file: string, source: string): { manifest: CompiledManifest; text: string } {
  const text = readRegularFile(file, LIMITS.maxManifestBytes);
  return { manifest: parseManifest(text, { file, source }), text };
}

/** Every `*.toml` of a folder in name order; a missing folder has none. */
export function manifestFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.toml')).sort().map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/** Loads one file into a directory load: its manifest, or its error. */
export function loadInto(result: DirectoryLoad, file: string, source: string): void {
  try {
    const { manifest, text } = loadManifestFile(file, source);
    result.manifests.push({ manifest, file, text });
  } catch (error) {
    result.errors.push(toLoadError(file, error));
  }
}

export function toLoadError(file: string, error: unknown): ManifestLoadError {
  const id = readIdLoosely(file);
  if (error instanceof ManifestError) {
    return { file, id, code: error.code, message: error.message, line: error.position?.line ?? null, column: error.position?.column ?? null };
  }
  return { file, id, code: 'manifest_read_failed', message: `${file}: ${String(error)}`, line: null, column: null };
}

/** The `id = "..."` of a file that failed to parse, so the error can name the agent it meant to change. */
function readIdLoosely(file: string): string | null {
  try {
    const match = /^\s*id\s*=\s*["']([a-z0-9][a-z0-9_-]*)["']/m.exec(readRegularFile(file, LIMITS.maxManifestBytes));
    return match ? match[1]! : null;
  } catch {
    return null;
  }
}
