import { hookEntries } from './hook-entries.ts';
import { shellQuote, type IntegratedLaunch, type IntegrationContext, type Launch } from './launch.ts';

/**
 * Claude Code: `--settings <json>` adds a settings layer for this launch only, merged with the user's
 * own files, which are never touched. Each listed event runs the hook command. A launch that already
 * passes the flag is left alone: two would not merge.
 */
export function settingsFlag(launch: Launch, context: IntegrationContext): IntegratedLaunch | null {
  const flag = context.spec.target;
  if (launch.args.some((arg) => arg === flag || arg.startsWith(`${flag}=`))) return null;
  const command = context.hookArgv.map(shellQuote).join(' ');
  const hooks = hookEntries(context.spec, command);
  return { ...launch, args: [flag, JSON.stringify({ hooks }), ...launch.args], files: [], summary: `${flag} with ${context.spec.events.length} hooks` };
}
