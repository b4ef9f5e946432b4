import type { HostSpec } from '../src/client/index.ts';
import { CORRAL_BIN, startDaemon, type DaemonProcess } from './daemon.ts';
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

export async function startFleetHost(name: string): Promise<FleetHost> {
  const sshd = await startSshd();
  const daemon = await startDaemon();
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
