import { opendir, readlink, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { descendants, descendantsByChildren, isDescendant } from '../../terminal/procfs.ts';

/** Processes looked at, the agent's own first: Copilot CLI's node loader holds nothing, its native child does. */
const MAX_PROCESSES = 16;
/** Open files looked at per process (Copilot CLI 1.0.102 has about 60 open). */
const MAX_FDS = 4096;
/** Sessions one process may hold open at once (tabs) that are weighed. */
const MAX_SESSIONS = 64;
const HOLD = /^inuse\.([1-9]\d{0,9})\.hold$/;
const SESSION = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * The `events.jsonl` of the Copilot CLI session a pane's agent has open (docs/usage.md, "Which Copilot
 * CLI session is the pane's"). Copilot CLI 1.0.102 holds `<COPILOT_HOME>/session-state/<session>/inuse.<pid>.hold`
 * open for each session open in it, named after its own pid. It is looked for in the open files of the
 * agent's process and those below it, the nearest holding one first, and a file counts only when the pid
 * in its name is the pid holding it: another Copilot, in another pane or outside Corral, holds its
 * sessions under its own pid. A process with several open (tabs): the one whose record was written last.
 * Null when none is held, or when `agentPid` is no longer below the pane's process (a reused pid).
 */
export async function copilotRecordOf(agentPid: number, panePid: number): Promise<string | null> {
  if (!isDescendant(agentPid, panePid)) return null;
  const own = await recordsHeldBy(agentPid);
  if (own.length > 0) return lastWritten(own);
  const below = descendantsByChildren(agentPid) ?? descendants(agentPid);
  for (const pid of below.slice(0, MAX_PROCESSES - 1)) {
    const records = await recordsHeldBy(pid);
    if (records.length > 0) return lastWritten(records);
  }
  return null;
}

/** The `events.jsonl` of each session folder whose `inuse.<pid>.hold` the process `pid` holds open. */
async function recordsHeldBy(pid: number): Promise<string[]> {
  const records: string[] = [];
  const dir = await opendir(`/proc/${pid}/fd`).catch(() => null);
  if (dir === null) return records;
  let looked = 0;
  try {
    // Read as listed, never the whole list at once: a process may hold any number open.
    for await (const entry of dir) {
      if (++looked > MAX_FDS) break;
      const target = await readlink(`/proc/${pid}/fd/${entry.name}`).catch(() => null);
      // A removed file reads `<path> (deleted)`, which no name below matches.
      const hold = target === null ? null : HOLD.exec(basename(target));
      if (target === null || hold === null || Number(hold[1]) !== pid || !target.startsWith('/')) continue;
      const session = dirname(target);
      if (!SESSION.test(basename(session)) || basename(dirname(session)) !== 'session-state') continue;
      const record = join(session, 'events.jsonl');
      if (!records.includes(record)) records.push(record);
      if (records.length >= MAX_SESSIONS) break;
    }
  } catch {
    // The process ended while its files were listed: what was found still names its sessions.
  }
  return records;
}

/** The record written last (its modification time); one not written yet counts as oldest; a tie goes to the one listed later. */
async function lastWritten(records: string[]): Promise<string> {
  let chosen = records[0]!;
  let newest = -1;
  for (const record of records) {
    const written = (await stat(record).catch(() => null))?.mtimeMs ?? -1;
    if (written >= newest) {
      chosen = record;
      newest = written;
    }
  }
  return chosen;
}
