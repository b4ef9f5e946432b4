import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { makeTempDir } from './daemon.ts';

export const SSHD = '/usr/sbin/sshd';

/** A throwaway sshd on 127.0.0.1 with its own host key, and an ssh config naming it `corral-test`. */
export interface LocalSshd {
  readonly host: string;
  /** For $CORRAL_SSH: ssh with the config that reaches this sshd with the throwaway key. */
  readonly sshCommand: string;
  /** The ssh_config file that reaches it as `host` (for `ssh -F`). */
  readonly sshConfig: string;
  /** The machine goes away: the listener and every session it forked (their commands too) are killed at once. */
  halt(): Promise<void>;
  /** The machine is back: the same sshd (port, keys) listens again. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** Every process below `pid`, from the parent links in /proc (sshd's sessions call setsid, so no group holds them). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (at: number) => {
    for (const child of children.get(at) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts sshd in the foreground (-D, logging to stderr with -e) and resolves once it says it listens.
 * Debian's openssh-server provides it; .ci/run installs it when missing.
 */
export async function startSshd(): Promise<LocalSshd> {
  if (!existsSync(SSHD)) throw new Error(`${SSHD} is missing: install openssh-server (apt-get install openssh-server), as .ci/run does`);
  const dir = makeTempDir('corral-sshd-');
  const user = userInfo().username;
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'client_key')]);
  execFileSync('cp', [join(dir, 'client_key.pub'), join(dir, 'authorized_keys')]);
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 }); // sshd's privilege separation folder
  const port = await freePort();
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      'ListenAddress 127.0.0.1',
      `Port ${port}`,
      `HostKey ${join(dir, 'host_key')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${user}`,
      'LogLevel INFO',
      'UseDNS no',
      // bash sources ~/.bashrc for a command run by sshd only at shell level 1. This machine's root
      // .bashrc runs `pyenv init`, whose rehash takes a lock: concurrent ssh commands queued on it for
      // seconds each (one remote-host run took 16 min). The remote shell's start-up is not under test.
      'SetEnv SHLVL=1',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'ssh_config'),
    [
      'Host corral-test',
      '  HostName 127.0.0.1',
      `  Port ${port}`,
      `  User ${user}`,
      `  IdentityFile ${join(dir, 'client_key')}`,
      '  IdentitiesOnly yes',
      '  StrictHostKeyChecking no',
      '  UserKnownHostsFile /dev/null',
      '  LogLevel ERROR',
      '  GSSAPIAuthentication no',
      '  KexAlgorithms curve25519-sha256',
      '',
    ].join('\n'),
  );
  const listen = async (): Promise<ChildProcess> => {
    const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr!.setEncoding('utf8');
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`sshd did not listen in time:\n${log}`)), 15_000);
      child.stderr!.on('data', (text: string) => {
        log += text;
        if (log.includes(`Server listening on 127.0.0.1 port ${port}`)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`sshd exited with ${code} before listening:\n${log}`));
      });
    });
    return child;
  };
  let child = await listen();
  const halt = async () => {
    const sessions = descendants(child.pid!);
    child.kill('SIGKILL');
    for (const pid of sessions) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await exited(child);
  };
  return {
    host: 'corral-test',
    sshCommand: `ssh -F ${join(dir, 'ssh_config')}`,
    sshConfig: join(dir, 'ssh_config'),
    halt,
    resume: async () => {
      await halt();
      child = await listen();
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited(child);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
