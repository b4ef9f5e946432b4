import type { IntegrationSpec } from '../detect/manifest-spec.ts';

/**
 * The settings `hooks` entries that run `command` on each of the manifest's events, in the agent's
 * own shape: Claude Code counts a hook's timeout in seconds, Gemini CLI and Qwen Code in milliseconds
 * and name each hook. Per-launch integration and `corral integration install` write the same entries.
 */
export function hookEntries(spec: IntegrationSpec, command: string): Record<string, unknown[]> {
  const entry = (event: string) =>
    spec.mechanism === 'settings_flag'
      ? { hooks: [{ type: 'command', command, timeout: 5 }] }
      : { hooks: [{ type: 'command', command, name: `corral-${event}`, timeout: 5000 }] };
  return Object.fromEntries(spec.events.map((event) => [event, [entry(event)]]));
}

/** Whether a hook command (a shell line, or a notify argv) is Corral's own hook for this mapping. */
export function isCorralHook(command: string | readonly string[], hook: string): boolean {
  const words = typeof command === 'string' ? command.split(/\s+/).map((word) => word.replace(/^'|'$/g, '')) : [...command];
  const at = words.indexOf('report');
  return at > 0 && /corral/.test(words[at - 1] ?? '') && words[at + 1] === '--hook' && words[at + 2] === hook;
}
