import { parse as parseToml } from 'smol-toml';
import { compileManifest } from './compile.ts';
import type { CompiledManifest } from './compiled.ts';
import { ManifestError } from './errors.ts';
import { LIMITS } from './limits.ts';
import type { ManifestSpec } from './manifest-spec.ts';
import { findKeyPosition, type KeyPath } from './positions.ts';
import { checkManifest, validateManifest } from './schema.ts';

export interface ManifestOrigin {
  file: string; // shown in error positions
  source: string; // recorded in the ManifestRef: 'bundled', 'user:<path>', 'catalog:<source>'
}

/** TOML text to a compiled manifest, or a ManifestError with file, line and column. Pure. */
export function parseManifest(text: string, origin: ManifestOrigin): CompiledManifest {
  const spec = validateManifest(readDocument(text, origin), origin.file, text);
  return compileManifest(spec, origin.source, (path) => findKeyPosition(origin.file, text, path));
}

/**
 * Every problem of a manifest's text, each once, not only the first that parseManifest throws: what
 * `corral manifest lint` lists. Too large or not TOML is one problem; past that, every schema problem,
 * then the patterns, each rule's, the identity's and the prompt readers' compiled on their own, so one
 * bad pattern hides none of another rule. Empty: it loads. Pure.
 */
export function manifestProblems(text: string, origin: ManifestOrigin): ManifestError[] {
  let doc: Record<string, unknown>;
  try {
    doc = readDocument(text, origin);
  } catch (error) {
    if (error instanceof ManifestError) return [error];
    throw error;
  }
  const { spec, problems } = checkManifest(doc, origin.file, text);
  const locate = (path: KeyPath) => findKeyPosition(origin.file, text, path);
  const none = { rules: [], identity: { ...spec.identity, argvPatterns: [] }, prompts: [] };
  const parts: ManifestSpec[] = [
    ...spec.rules.map((rule) => ({ ...spec, ...none, rules: [rule] })),
    { ...spec, ...none, identity: spec.identity },
    { ...spec, ...none, prompts: spec.prompts },
  ];
  for (const part of parts) {
    try {
      compileManifest(part, origin.source, locate);
    } catch (error) {
      if (!(error instanceof ManifestError)) throw error;
      problems.push(error);
    }
  }
  return problems;
}

/** The TOML document of a manifest's text, within the size limit. */
function readDocument(text: string, origin: ManifestOrigin): Record<string, unknown> {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > LIMITS.maxManifestBytes) {
    throw new ManifestError('manifest_limit_exceeded', `${bytes} bytes exceed the manifest size limit of ${LIMITS.maxManifestBytes}`, null, origin.file);
  }
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const line = (error as { line?: number }).line ?? 1;
    const column = (error as { column?: number }).column ?? 1;
    const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    throw new ManifestError('manifest_syntax', reason, { file: origin.file, line, column });
  }
}
