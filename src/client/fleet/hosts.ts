import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { parse, TomlError } from 'smol-toml';
import { defaultConfigPath } from '../../protocol/config-path.ts';
import { CorralError } from '../../protocol/errors.ts';
import { ClientError } from '../connection.ts';
import { fleetProblemLine, LOCAL_HOST, readFleetConfig, type FleetConfig, type HostSpec } from '../../protocol/fleet-config.ts';
import { readOpenFile } from './read-open-file.ts';

/** The daemon refuses a larger config.toml too (src/daemon/config/load-config.ts). */
const MAX_CONFIG_BYTES = 64 * 1024;

/** The file's text, or null when there is none; a FIFO or a device is refused without blocking on it. */
function readConfigText(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CorralError('config_invalid', `${path}: cannot read the config (${(error as NodeJS.ErrnoException).code}); fix its permissions`, { file: path });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new CorralError('config_invalid', `${path}: the config is not a regular file`, { file: path });
    if (stat.size > MAX_CONFIG_BYTES) throw new CorralError('config_invalid', `${path}: the file is over ${MAX_CONFIG_BYTES} bytes`, { file: path });
    return readOpenFile(fd, stat.size);
  } finally {
    closeSync(fd);
  }
}

/** This machine as a host: the daemon at `socket` (default: the one this command would reach). */
export function localHost(socket: string | null = null): HostSpec {
  return { name: LOCAL_HOST, ssh: null, command: [], sshOptions: [], socket };
}

/**
 * The fleet tables of config.toml (`[[hosts]]`, `[fleet]`; docs/config.md), checked as the daemon
 * checks them: a problem fails with `config_invalid` naming the file and line. No file: no hosts.
 */
export function loadFleetConfig(configPath: string = defaultConfigPath()): FleetConfig {
  const text = readConfigText(configPath);
  if (text === null) return { hosts: [], byDefault: false };
  let document: Record<string, unknown>;
  try {
    document = parse(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) throw new CorralError('config_invalid', `${configPath}:${error.line}: not valid TOML: ${error.message.split('\n')[0]}`, { file: configPath, line: error.line });
    throw error;
  }
  const read = readFleetConfig(document);
  if ('problem' in read) {
    const line = fleetProblemLine(text, read.problem);
    throw new CorralError('config_invalid', `${configPath}${line !== null ? `:${line}` : ''}: ${read.problem.problem}`, { file: configPath, line });
  }
  return read.config;
}

/** The `[[hosts]]` of config.toml, in file order; `local` (this machine) is not among them. */
export function loadHosts(configPath?: string): HostSpec[] {
  return loadFleetConfig(configPath).hosts;
}

/**
 * The `[[hosts]]` entry a bare name means, whole (ssh, ssh_options, command, socket), wherever a command
 * takes a host (`--host NAME`, a fleet file's `host = "NAME"`); null for a destination with `@` or a
 * name config.toml does not give, which is handed to ssh as written (its own config may name it).
 */
export function configuredHost(name: string, configPath?: string): HostSpec | null {
  if (name.includes('@')) return null;
  return loadHosts(configPath).find((host) => host.name === name) ?? null;
}

/**
 * The host a name means: `local` is this machine (the daemon at `socket`), any other a `[[hosts]]`
 * entry; an unknown name fails with `host_not_found` listing the names there are.
 */
export function hostByName(name: string, options: { configPath?: string; socket?: string } = {}): HostSpec {
  if (name === LOCAL_HOST) return localHost(options.socket ?? null);
  const hosts = loadHosts(options.configPath);
  const host = hosts.find((h) => h.name === name);
  if (!host) {
    const known = [LOCAL_HOST, ...hosts.map((h) => h.name)].join(', ');
    throw new ClientError('host_not_found', `no host is named "${name}" (known: ${known}); add a [[hosts]] table to ${options.configPath ?? defaultConfigPath()} (docs/fleet.md)`);
  }
  return host;
}
