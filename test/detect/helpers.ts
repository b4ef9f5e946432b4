import { parseManifest } from '../../src/detect/parse.ts';
import type { CompiledManifest } from '../../src/detect/compiled.ts';
import type { DetectInput } from '../../src/detect/types.ts';

/** A manifest from TOML text, as a test writes it. */
export function manifest(body: string, header = 'id = "demo"\nversion = "1.0.0"\n'): CompiledManifest {
  return parseManifest(header + body, { file: 'demo.toml', source: 'test' });
}

export function screen(text: string, title: string | null = null): DetectInput {
  return { lines: text.split('\n'), title, progress: null };
}

export const RULE = '─'.repeat(20);
