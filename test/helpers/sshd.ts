import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { makeTempDir } from '../../harness/daemon.ts';

export const SSHD = '/usr/sbin/sshd';

/** A throwaway sshd on 127.0.0.1 with its own host key, and an ssh config naming it `corral-test`. */
export interface LocalSshd {
  readonly host: string;
  /** For $CORRAL_SSH: ssh with the config that reaches this sshd with the throwaway key. */
  readonly sshCommand: string;
  stop(): Promise<void>;
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
  return {
    host: 'corral-test',
    sshCommand: `ssh -F ${join(dir, 'ssh_config')}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
