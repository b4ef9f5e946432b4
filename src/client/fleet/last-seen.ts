import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { AgentInfo } from '../../protocol/methods/agent.ts';
import { readOpenFile } from './read-open-file.ts';

/** Bumped when the file's shape changes; a file of another version is not read (the next write replaces it). */
const LAST_SEEN_VERSION = 1;
/** The most agents kept of one host; a host with more keeps its first ones, as its list gave them. */
export const MAX_SEEN_AGENTS_PER_HOST = 500;
/** The file is never larger: past it the hosts' prompts are left out, and past it still the file is not written. */
export const MAX_SEEN_FILE_BYTES = 1 << 20;

/** A host's agents as a fleet read last saw them, and when. */
export interface SeenHost {
  /** The host's `ssh` when seen: an entry renamed onto another machine does not inherit the old one's agents. */
  ssh: string | null;
  /** When the host was last connected (ms since the epoch). */
  seenAt: number;
  agents: AgentInfo[];
}

let agentCheck: TypeCheck<typeof AgentInfo> | undefined;

/** Compiled on first use, as params are (src/protocol/params-check.ts). */
function isAgentInfo(value: unknown): value is AgentInfo {
  agentCheck ??= TypeCompiler.Compile(AgentInfo);
  return agentCheck.Check(value);
}

/** `$XDG_STATE_HOME/corral/fleet-seen-<hash of the socket>.json`: one file per local daemon, as the daemon's own state files are. */
export function lastSeenPath(socketPath: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = createHash('sha256').update(socketPath).digest('hex').slice(0, 12);
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'corral', `fleet-seen-${key}.json`);
}

/**
 * The last known agents of each fleet host, kept between one-shot commands (docs/fleet.md): a fleet
 * read writes what it saw of each connected host, and a later command shows a host that is away with
 * them, stale. A cache only: a file that is missing, unreadable, too large, loose or of another shape
 * reads as empty, and a failed write loses nothing the daemons hold.
 */
export class LastSeenFile {
  constructor(readonly path: string) {}

  read(): Map<string, SeenHost> {
    const seen = new Map<string, SeenHost>();
    const text = readPrivateText(this.path);
    if (text === null) return seen;
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      return seen;
    }
    const { version, hosts } = (document ?? {}) as { version?: unknown; hosts?: unknown };
    if (version !== LAST_SEEN_VERSION || typeof hosts !== 'object' || hosts === null || Array.isArray(hosts)) return seen;
    for (const [name, entry] of Object.entries(hosts as Record<string, unknown>)) {
      const { ssh, seenAt, agents } = (entry ?? {}) as Partial<Record<keyof SeenHost, unknown>>;
      if (!(ssh === null || typeof ssh === 'string') || typeof seenAt !== 'number' || !Number.isFinite(seenAt) || !Array.isArray(agents)) continue;
      seen.set(name, { ssh, seenAt, agents: agents.slice(0, MAX_SEEN_AGENTS_PER_HOST).filter(isAgentInfo) });
    }
    return seen;
  }

  /** Replaces the file with these hosts (0600, by rename); false when it was not written. */
  write(hosts: ReadonlyMap<string, SeenHost>): boolean {
    const bounded = [...hosts].map(([name, host]) => [name, { ...host, agents: host.agents.slice(0, MAX_SEEN_AGENTS_PER_HOST) }] as const);
    let text = serialize(bounded);
    if (Buffer.byteLength(text) > MAX_SEEN_FILE_BYTES) {
      text = serialize(bounded.map(([name, host]) => [name, { ...host, agents: host.agents.map(({ prompt: _prompt, ...rest }) => rest) }] as const));
    }
    if (Buffer.byteLength(text) > MAX_SEEN_FILE_BYTES) return false;
    const folder = join(this.path, '..');
    const temporary = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.path);
      return true;
    } catch {
      rmSync(temporary, { force: true });
      return false;
    }
  }
}

function serialize(hosts: readonly (readonly [string, SeenHost])[]): string {
  return JSON.stringify({ version: LAST_SEEN_VERSION, hosts: Object.fromEntries(hosts) });
}

/**
 * The file's text, or null: only a regular file of this user's, never a link, readable by no one
 * else (as it is written), opened without blocking and up to MAX_SEEN_FILE_BYTES.
 */
function readPrivateText(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    const owner = process.getuid?.() ?? stat.uid;
    if (!stat.isFile() || stat.uid !== owner || (stat.mode & 0o077) !== 0 || stat.size > MAX_SEEN_FILE_BYTES) return null;
    return readOpenFile(fd, stat.size);
  } finally {
    closeSync(fd);
  }
}
