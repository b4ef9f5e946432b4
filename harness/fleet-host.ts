import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostSpec } from '../src/client/index.ts';
import { PROTOCOL_VERSION } from '../src/protocol/version.ts';
import { CORRAL_BIN, makeTempDir, startDaemon, type DaemonProcess } from './daemon.ts';
import { startSshd, type LocalSshd } from './sshd.ts';

/** A machine of a test fleet: its own daemon, reached through its own throwaway sshd on localhost. */
/**
 * A host whose sshd is gone shows offline within this, the figure the fleet tests hold: ssh sees its
 * connection closed at once, and the link moves on its close. A silent network drop takes ssh's
 * keepalive instead (15 s; docs/fleet.md).
 */
export const OFFLINE_WITHIN_MS = 10_000;

export interface FleetHost {
  readonly name: string;
  readonly sshd: LocalSshd;
  readonly daemon: DaemonProcess;
  /** The host as a `[[hosts]]` table names it. */
  readonly spec: HostSpec;
  /** The same, as TOML for config.toml. */
  readonly toml: string;
  dispose(): Promise<void>;
}

/** `dir`: the daemon's folder, its config (config/corral/) written there first. */
export async function startFleetHost(name: string, options: { dir?: string } = {}): Promise<FleetHost> {
  const sshd = await startSshd();
  const daemon = await startDaemon(options.dir !== undefined ? { dir: options.dir } : {});
  const spec: HostSpec = { name, ssh: sshd.host, command: [process.execPath, CORRAL_BIN], sshOptions: ['-F', sshd.sshConfig], socket: daemon.socket };
  const toml = [
    '[[hosts]]',
    `name = ${JSON.stringify(name)}`,
    `ssh = ${JSON.stringify(sshd.host)}`,
    `command = ${JSON.stringify(spec.command)}`,
    `ssh_options = ${JSON.stringify(spec.sshOptions)}`,
    `socket = ${JSON.stringify(daemon.socket)}`,
    '',
  ].join('\n');
  return {
    name,
    sshd,
    daemon,
    spec,
    toml,
    dispose: async () => {
      await daemon.dispose();
      await sshd.stop();
    },
  };
}

/** What a hostile host does once it has answered the status (test/fixtures/hostile-host.mjs). */
export type HostileMode = 'line' | 'reply' | 'flood' | 'held' | 'garbage' | 'stderr' | 'escape' | 'status' | 'polite';

export const HOSTILE_HOST = fileURLToPath(new URL('../test/fixtures/hostile-host.mjs', import.meta.url));

/** A machine whose `corral` is test/fixtures/hostile-host.mjs: reached through its own sshd, it breaks the protocol as `mode` says. */
export interface HostileHost {
  readonly name: string;
  readonly spec: HostSpec;
  readonly toml: string;
  /** Bytes of the attack the host has written so far, as its log last said (written each 16 MiB). */
  sent(): number;
  /** Connections the host has taken so far (each reconnect of the client is one). */
  connections(): number;
  dispose(): Promise<void>;
}

export async function startHostileHost(name: string, mode: HostileMode): Promise<HostileHost> {
  const sshd = await startSshd();
  const log = join(makeTempDir('corral-hostile-'), 'log');
  writeFileSync(log, '');
  const spec: HostSpec = { name, ssh: sshd.host, command: [process.execPath, HOSTILE_HOST, mode, String(PROTOCOL_VERSION), log], sshOptions: ['-F', sshd.sshConfig], socket: null };
  const lines = () => readFileSync(log, 'utf8').split('\n');
  return {
    name,
    spec,
    toml: ['[[hosts]]', `name = ${JSON.stringify(name)}`, `ssh = ${JSON.stringify(sshd.host)}`, `command = ${JSON.stringify(spec.command)}`, `ssh_options = ${JSON.stringify(spec.sshOptions)}`, ''].join('\n'),
    sent: () => Math.max(0, ...lines().filter((line) => line.startsWith('sent ')).map((line) => Number(line.slice(5)))),
    connections: () => lines().filter((line) => line === 'connected').length,
    dispose: async () => {
      await sshd.halt(); // its sessions too: a hostile script waits on its client otherwise
      await sshd.stop();
    },
  };
}
