import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IntegratedLaunch, IntegrationContext, Launch } from './launch.ts';

/** The folder, beside the plugin, where it keeps each session's assistant messages (docs/usage.md); `corral report` names the same (src/cli/report/record.ts). */
export const PLUGIN_RECORDS = 'usage';

/**
 * OpenCode: an environment variable names one more config folder (OPENCODE_CONFIG_DIR), whose
 * `plugins/*.js` OpenCode loads beside the user's own plugins. Corral writes a folder holding one
 * plugin that runs the hook command with each listed event as JSON on stdin. A launch or a user that
 * sets the variable already is left alone: it names one folder only.
 */
export function pluginDir(launch: Launch, context: IntegrationContext): IntegratedLaunch | null {
  const variable = context.spec.target;
  if (launch.env[variable] ?? context.userEnv[variable]) return null;
  const plugins = join(context.dir, 'plugins');
  mkdirSync(plugins, { recursive: true, mode: 0o700 });
  const path = join(plugins, 'corral.js');
  writeFileSync(path, pluginSource(context.hookArgv, context.spec.events, join(context.dir, PLUGIN_RECORDS)), { mode: 0o600 });
  return { ...launch, env: { ...launch.env, [variable]: context.dir }, files: [path], summary: `${variable} with a plugin for ${context.spec.events.length} events` };
}

/**
 * The plugin: one hook process at a time, never awaited by OpenCode. OpenCode fires several events
 * within a millisecond (a status and the idle that follows), and hook processes started together reach
 * the socket in any order, so the later event could be refused behind the earlier one. Each event gets
 * its place as `--seq` (a counter of this plugin instance on top of its load time in microseconds, so a
 * restarted OpenCode still counts up), and while a hook runs only the newest event waits: it goes as
 * soon as that hook has exited, and events it overtook are not sent (their state is already past).
 */
function pluginSource(argv: string[], events: string[], records: string): string {
  return `// Corral's per-launch plugin: each listed event goes to \`corral report --hook opencode --seq N\` on stdin,
// and each assistant message's tokens are kept in RECORDS/<session>.jsonl for Corral's usage reading.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const ARGV = ${JSON.stringify(argv)};
const EVENTS = new Set(${JSON.stringify(events)});
const RECORDS = ${JSON.stringify(records)};
/** The line last written per message: a message is updated many times, its tokens only a few. */
const written = new Map();

const keep = (info) => {
  try {
    if (!info || info.role !== 'assistant' || !info.tokens || typeof info.id !== 'string') return;
    if (typeof info.sessionID !== 'string' || !/^[\\w-]{1,128}$/.test(info.sessionID)) return;
    const t = info.tokens;
    if (!((t.input ?? 0) + (t.output ?? 0) + (t.reasoning ?? 0) + (t.cache?.read ?? 0) + (t.cache?.write ?? 0) > 0)) return;
    const line = JSON.stringify({ type: 'assistant', id: info.id, sessionID: info.sessionID, modelID: info.modelID, providerID: info.providerID, tokens: t, time: info.time?.completed ?? info.time?.created ?? null });
    if (written.get(info.id) === line) return;
    written.delete(info.id);
    written.set(info.id, line);
    if (written.size > 1000) written.delete(written.keys().next().value);
    mkdirSync(RECORDS, { recursive: true, mode: 0o700 });
    appendFileSync(join(RECORDS, info.sessionID + '.jsonl'), line + '\\n', { mode: 0o600 });
  } catch {
    // a record never breaks its agent
  }
};

export const CorralReport = async () => {
  let seq = Date.now() * 1000;
  let running = false;
  let waiting = null;
  const report = (event, n) => {
    running = true;
    let ended = false;
    const next = () => {
      if (ended) return;
      ended = true;
      running = false;
      if (waiting) {
        const { event: later, n: at } = waiting;
        waiting = null;
        report(later, at);
      }
    };
    try {
      const child = spawn(ARGV[0], [...ARGV.slice(1), '--seq', String(n)], { stdio: ['pipe', 'ignore', 'ignore'] });
      child.on('error', next);
      child.on('exit', next);
      child.stdin.on('error', () => {});
      child.stdin.end(JSON.stringify(event));
    } catch {
      next(); // a hook never breaks its agent
    }
  };
  return {
    event: async ({ event }) => {
      if (event?.type === 'message.updated') keep(event.properties?.info);
      if (!event || !EVENTS.has(event.type)) return;
      seq = Math.max(seq + 1, Date.now() * 1000);
      if (running) waiting = { event, n: seq };
      else report(event, seq);
    },
  };
};
`;
}
