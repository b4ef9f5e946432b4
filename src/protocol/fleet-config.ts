import { MAX_SOCKET_PATH_BYTES } from './socket-path.ts';
import { isPlainObject } from './plain-object.ts';

/**
 * One machine of the fleet, from a `[[hosts]]` table of config.toml (docs/config.md). The daemon
 * only checks these tables; the client reaches each host with `ssh SSH COMMAND... server bridge`.
 */
export interface HostSpec {
  /** How targets (`api@NAME`), lists and events name the host. */
  name: string;
  /** What ssh is given as the destination (`user@box`, or a Host of ssh_config); null for this machine. */
  ssh: string | null;
  /** The corral command on the host, as an argv (default `["corral"]`). */
  command: string[];
  /** More ssh arguments for this host, before the destination (`["-p", "2222"]`). */
  sshOptions: string[];
  /** The daemon's socket on the host (passed as --socket); null for the host's default. */
  socket: string | null;
}

/** The machine this command runs on is always in the fleet, by this name; no `[[hosts]]` may take it. */
export const LOCAL_HOST = 'local';

export interface FleetConfig {
  hosts: HostSpec[];
  /** `[fleet] by_default`: agent list, agent wait, events and top span every host without --fleet. */
  byDefault: boolean;
}

/** A problem in the fleet tables: where (`hosts[1].ssh`, `fleet.by_default`) and what. */
export interface FleetConfigProblem {
  /** The index of the `[[hosts]]` table, or null for `[fleet]`. */
  host: number | null;
  key: string | null;
  problem: string;
}

export const MAX_HOSTS = 64;
const MAX_ARGV = 32;
const HOST_KEYS = ['name', 'ssh', 'command', 'ssh_options', 'socket'] as const;
const FLEET_KEYS = ['by_default'] as const;
/** Letters, digits, `.`, `_` and `-`: never `@`, `*`, `?` or `:`, so `api@NAME` is never read another way. */
const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

export function isHostName(name: string): boolean {
  return HOST_NAME.test(name);
}

class Problem extends Error {
  constructor(readonly detail: FleetConfigProblem) {
    super(detail.problem);
  }
}

function argv(value: unknown, key: string, host: number, nonEmpty: boolean): string[] {
  const fits = Array.isArray(value) && value.length <= MAX_ARGV && (!nonEmpty || value.length > 0) && value.every((item) => typeof item === 'string' && item.length <= 4096);
  if (!fits) throw new Problem({ host, key, problem: `"${key}" must be an array of ${nonEmpty ? '1' : '0'} to ${MAX_ARGV} strings` });
  if (nonEmpty && value[0] === '') throw new Problem({ host, key, problem: `"${key}" must name a program first` });
  return [...(value as string[])];
}

function hostOf(table: unknown, index: number, taken: Set<string>): HostSpec {
  if (!isPlainObject(table)) throw new Problem({ host: index, key: null, problem: 'each [[hosts]] entry must be a table' });
  for (const key of Object.keys(table)) {
    if (!(HOST_KEYS as readonly string[]).includes(key)) throw new Problem({ host: index, key, problem: `unknown key "hosts.${key}" (known: ${HOST_KEYS.join(', ')})` });
  }
  const { name, ssh, command, ssh_options: sshOptions, socket } = table;
  if (typeof name !== 'string' || !HOST_NAME.test(name)) {
    throw new Problem({ host: index, key: 'name', problem: '"name" must be 1 to 63 letters, digits, ".", "_" or "-", starting with a letter or digit' });
  }
  if (name === LOCAL_HOST) throw new Problem({ host: index, key: 'name', problem: `"${LOCAL_HOST}" is this machine's own name in the fleet: give the host another name` });
  if (taken.has(name)) throw new Problem({ host: index, key: 'name', problem: `two [[hosts]] are named "${name}": names must differ` });
  taken.add(name);
  // Not starting with "-": the destination must never be read by ssh as an option.
  if (typeof ssh !== 'string' || !/^[^\s-][^\s]{0,254}$/.test(ssh)) {
    throw new Problem({ host: index, key: 'ssh', problem: `"ssh" of host "${name}" must be an ssh destination such as "user@box" (no spaces, not starting with "-")` });
  }
  if (socket !== undefined && (typeof socket !== 'string' || !socket.startsWith('/') || Buffer.byteLength(socket) > MAX_SOCKET_PATH_BYTES)) {
    throw new Problem({ host: index, key: 'socket', problem: `"socket" of host "${name}" must be an absolute path of at most ${MAX_SOCKET_PATH_BYTES} bytes` });
  }
  return {
    name,
    ssh,
    command: command === undefined ? ['corral'] : argv(command, 'command', index, true),
    sshOptions: sshOptions === undefined ? [] : argv(sshOptions, 'ssh_options', index, false),
    socket: typeof socket === 'string' ? socket : null,
  };
}

/**
 * Reads the `hosts` and `fleet` entries of a parsed config document (other keys are not looked at),
 * or throws the first problem with where it is. The daemon and the client both call it, so a file the
 * daemon starts with is one the client reads.
 */
export function readFleetConfig(document: Record<string, unknown>): { config: FleetConfig } | { problem: FleetConfigProblem } {
  try {
    const hosts = document.hosts ?? [];
    if (!Array.isArray(hosts)) throw new Problem({ host: null, key: 'hosts', problem: '"hosts" must be an array of tables ([[hosts]])' });
    if (hosts.length > MAX_HOSTS) throw new Problem({ host: null, key: 'hosts', problem: `at most ${MAX_HOSTS} [[hosts]] may be named` });
    const taken = new Set<string>();
    const specs = hosts.map((table, index) => hostOf(table, index, taken));
    const fleet = document.fleet ?? {};
    if (!isPlainObject(fleet)) throw new Problem({ host: null, key: 'fleet', problem: '"fleet" must be a table ([fleet])' });
    for (const key of Object.keys(fleet)) {
      if (!(FLEET_KEYS as readonly string[]).includes(key)) throw new Problem({ host: null, key, problem: `unknown key "fleet.${key}" (known: ${FLEET_KEYS.map((k) => `fleet.${k}`).join(', ')})` });
    }
    if (fleet.by_default !== undefined && typeof fleet.by_default !== 'boolean') throw new Problem({ host: null, key: 'by_default', problem: '"fleet.by_default" must be true or false' });
    return { config: { hosts: specs, byDefault: fleet.by_default === true } };
  } catch (error) {
    if (error instanceof Problem) return { problem: error.detail };
    throw error;
  }
}

/** The 1-based line a problem is on: the key's line in its `[[hosts]]` table (or `[fleet]`), else the table's header. */
export function fleetProblemLine(text: string, problem: FleetConfigProblem): number | null {
  const lines = text.split('\n');
  const header = problem.host === null ? /^\s*\[\s*fleet\s*\]/ : /^\s*\[\[\s*hosts\s*\]\]/;
  let seen = -1;
  let start: number | null = null;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (/^\s*\[/.test(line)) {
      if (start !== null) break;
      if (header.test(line) && (problem.host === null || (seen += 1) === problem.host)) start = i;
      continue;
    }
    if (start !== null && problem.key !== null && new RegExp(`^\\s*"?${problem.key}"?\\s*=`).test(line)) return i + 1;
  }
  return start === null ? null : start + 1;
}
