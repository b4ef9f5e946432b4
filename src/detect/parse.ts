import { parse as parseToml } from 'smol-toml';
import { compileManifest } from './compile.ts';
import type { CompiledManifest } from './compiled.ts';
import { ManifestError } from './errors.ts';
import { LIMITS } from './limits.ts';
import { findKeyPosition } from './positions.ts';
import { validateManifest } from './schema.ts';

export interface ManifestOrigin {
  file: string; // shown in error positions
  source: string; // recorded in the ManifestRef: 'bundled', 'user:<path>', 'catalog:<source>'
}

/** TOML text to a compiled manifest, or a ManifestError with file, line and column. Pure. */
export function parseManifest(text: string, origin: ManifestOrigin): CompiledManifest {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > LIMITS.maxManifestBytes) {
    throw new ManifestError('manifest_limit_exceeded', `${origin.file}: ${bytes} bytes exceed the manifest size limit of ${LIMITS.maxManifestBytes}`);
  }
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const line = (error as { line?: number }).line ?? 1;
    const column = (error as { column?: number }).column ?? 1;
    const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    throw new ManifestError('manifest_syntax', reason, { file: origin.file, line, column });
  }
  const spec = validateManifest(doc, origin.file, text);
  return compileManifest(spec, origin.source, (path) => findKeyPosition(origin.file, text, path));
}
