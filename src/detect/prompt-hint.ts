import { isPromptKind } from '../protocol/prompt.ts';
import type { PromptHint } from './prompt-read.ts';

const REPORT_MESSAGE = /^(permission|question|plan|trust|auth|other): (.+)$/s;
const MAX_TEXT = 400;

/**
 * What a blocked report says of its prompt. Hook mappings write the message as `<kind>: <text>`
 * (`permission: Bash: rm -rf build/`, src/cli/report/claude.ts); other messages give no hint.
 */
export function hintFromReport(source: string, message: string | undefined): PromptHint | null {
  const match = message === undefined ? null : REPORT_MESSAGE.exec(message);
  if (!match) return null;
  // A hook's message is any process's text: no control character of it reaches a client's terminal.
  const text = match[2]!.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
  return { kind: match[1] as PromptHint['kind'] & string, text, source: `report:${source}` };
}

/** OSC 7501 `state=blocked:kind=permission`: the program names its prompt's kind; an unknown kind is no hint. */
export function hintFromProgramStatus(fields: Readonly<Record<string, string>>): PromptHint | null {
  const kind = fields['kind'];
  return isPromptKind(kind) ? { kind, source: 'report:osc7501' } : null;
}
