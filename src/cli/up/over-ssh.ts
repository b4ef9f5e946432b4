import { spawn } from 'node:child_process';
import { stringify } from 'smol-toml';
import { EXIT } from '../exit-codes.ts';
import { sshArgv } from '../remote.ts';
import type { DeclaredAgent } from './fleet-file.ts';
import type { AgentOutcome } from './outcome.ts';

/** The agents of one host as a fleet file of their own, without `host`: what the corral there reads on stdin. */
export function hostFleetFile(agents: DeclaredAgent[]): string {
  return stringify({
    agents: agents.map(({ name, command, cwd, env, workspace, prompt, worktree }) => ({
      name,
      command,
      ...(cwd !== undefined ? { cwd } : {}),
      env,
      ...(workspace !== undefined ? { workspace } : {}),
      ...(prompt !== undefined ? { prompt } : {}),
      ...(worktree !== undefined ? { worktree } : {}),
    })),
  });
}

/**
 * Runs `corral --json up -` (or `down -`) on `host` through ssh, as `--host` does (a `[[hosts]]` name
 * is its whole entry; docs/remote.md: $CORRAL_SSH, $CORRAL_REMOTE_COMMAND), with the host's agents on its stdin: the corral there does the
 * same work against its own daemon, so paths, worktrees and prompts are that machine's. Answers its
 * outcomes with the host filled in, and the exit code it gave (ssh's own failure: 4, unreachable).
 */
export function runOnHost(host: string, verb: 'up' | 'down', agents: DeclaredAgent[], flags: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ outcomes: AgentOutcome[]; exitCode: number }> {
  const [command, ...args] = sshArgv({ host, args: ['--json', verb, '-', ...flags] }, env, false);
  const unreachable = (message: string) => ({
    outcomes: agents.map((agent): AgentOutcome => ({ name: agent.name, host, action: 'failed', pane: null, error: { code: 'daemon_unreachable', message } })),
    exitCode: EXIT.unreachable,
  });
  return new Promise((resolve) => {
    const child = spawn(command!, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.stdin.on('error', () => {}); // an ssh that exits at once closes it; its exit says why
    child.stdin.end(hostFleetFile(agents));
    child.once('error', (error) => resolve(unreachable(`cannot run ${command} to reach ${host} (${error.message})`)));
    child.once('close', (code) => {
      // ssh's own messages pass on; the remote corral's error line is summed up here again.
      const passOn = stderr.split('\n').filter((line) => line !== '' && !/^\{"error":/.test(line));
      if (passOn.length > 0) process.stderr.write(`${passOn.map((line) => `${host}: ${line}`).join('\n')}\n`);
      if (code === 255) return resolve(unreachable(`ssh could not reach ${host} or run corral there (exit 255)`));
      try {
        const parsed = JSON.parse(stdout) as { agents: AgentOutcome[] };
        resolve({ outcomes: parsed.agents.map((outcome) => ({ ...outcome, host })), exitCode: code ?? 1 });
      } catch {
        const last = stderr.trim().split('\n').at(-1) ?? '';
        resolve({
          outcomes: agents.map((agent): AgentOutcome => ({ name: agent.name, host, action: 'failed', pane: null, error: { code: 'remote_failed', message: `corral ${verb} on ${host} exited ${code} without a result: ${last}` } })),
          exitCode: code ?? 1,
        });
      }
    });
  });
}
