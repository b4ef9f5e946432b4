import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { text, type Payload } from './action.ts';

/** The agent's own record of its session, which the daemon reads usage from (docs/usage.md). */
export interface AgentRecord {
  format: string;
  path: string;
}

const MAX_PATH = 4096;
/**
 * The folder, in the launch's OpenCode config folder, where Corral's plugin keeps each session's messages
 * (PLUGIN_RECORDS of src/integration/plugin-dir.ts, which the hook's small bundle does not load; the
 * tests of both name it).
 */
const OPENCODE_RECORDS = 'usage';

/**
 * Where the hook's agent keeps its session's record: Claude Code, Qwen Code and Gemini CLI name their
 * transcript in the payload (`transcript_path`); OpenCode's is the one Corral's plugin writes for the
 * event's `sessionID`, in the folder the launch names (OPENCODE_CONFIG_DIR); Codex's notify names its thread, whose rollout file is
 * `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`, looked for under today and yesterday.
 */
export function recordOf(hook: string, payload: Payload, env: NodeJS.ProcessEnv, now = new Date()): AgentRecord | undefined {
  if (hook === 'claude' || hook === 'qwen' || hook === 'gemini') {
    const path = text(payload, 'transcript_path');
    return path !== undefined && path.startsWith('/') && path.length <= MAX_PATH ? { format: hook, path } : undefined;
  }
  if (hook === 'opencode') {
    // Corral's plugin keeps the session's messages under its own folder (src/integration/plugin-dir.ts).
    const properties = payload['properties'];
    const session = typeof properties === 'object' && properties !== null ? (properties as Payload)['sessionID'] : undefined;
    const dir = env.OPENCODE_CONFIG_DIR;
    if (typeof session !== 'string' || !/^[\w-]{1,128}$/.test(session) || dir === undefined || !dir.startsWith('/') || dir.length > MAX_PATH - 200) return undefined;
    return { format: 'opencode', path: join(dir, OPENCODE_RECORDS, `${session}.jsonl`) };
  }
  if (hook === 'codex') {
    const thread = text(payload, 'thread-id');
    if (thread === undefined || !/^[\w-]{1,128}$/.test(thread)) return undefined;
    const home = env.CODEX_HOME?.startsWith('/') ? env.CODEX_HOME : join(env.HOME?.startsWith('/') ? env.HOME : homedir(), '.codex');
    for (const day of [now, new Date(now.getTime() - 86_400_000)]) {
      const folder = join(home, 'sessions', String(day.getFullYear()), pad(day.getMonth() + 1), pad(day.getDate()));
      let names: string[];
      try {
        names = readdirSync(folder);
      } catch {
        continue;
      }
      const name = names.find((entry) => entry.startsWith('rollout-') && entry.endsWith(`-${thread}.jsonl`));
      if (name !== undefined) return { format: 'codex', path: join(folder, name) };
    }
  }
  return undefined;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
