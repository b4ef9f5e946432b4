import type { CompiledManifest } from '../../detect/compiled.ts';
import { evaluate } from '../../detect/evaluate.ts';
import { readPrompt } from '../../detect/prompt-read.ts';
import type { DetectInput } from '../../detect/types.ts';

/** A lint finding, in lint-run.ts's shape (declared here too, so the two files import in one direction). */
interface PromptFinding {
  level: 'warning';
  code: 'prompt_unread' | 'prompt_reader_unused';
  file: string;
  rule: string | null;
  message: string;
}

/**
 * The manifest's prompt readers against the fixture screens its rules judge blocked: a blocked
 * screen no reader reads (its prompt would say only "other"), and a reader no such screen shows.
 */
export function lintPromptReaders(manifest: CompiledManifest, file: string, screens: readonly { name: string; input: DetectInput }[]): PromptFinding[] {
  if (manifest.prompts.length === 0) return [];
  const findings: PromptFinding[] = [];
  const used = new Set<string>();
  for (const screen of screens) {
    if (evaluate(manifest, screen.input).state !== 'blocked') continue;
    const prompt = readPrompt(manifest, screen.input);
    if (prompt.source.startsWith('screen:')) used.add(prompt.source.slice('screen:'.length));
    else {
      findings.push({ level: 'warning', code: 'prompt_unread', file, rule: null, message: `no prompt reader of ${manifest.spec.id} reads the blocked fixture ${screen.name}; add a [[prompts]] reader for its dialog` });
    }
  }
  for (const reader of manifest.prompts) {
    if (used.has(reader.spec.id)) continue;
    findings.push({ level: 'warning', code: 'prompt_reader_unused', file, rule: reader.spec.id, message: `prompt reader ${reader.spec.id} reads none of the blocked fixture screens of ${manifest.spec.id}; add a fixture that shows its dialog` });
  }
  return findings;
}
