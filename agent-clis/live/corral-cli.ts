// Runs the real `corral` CLI (bin/corral) against one daemon socket, the way a script would, and
// keeps what it printed, its exit code and how long it took.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface CliRun {
  args: string[];
  code: number;
  stdout: string;
  stderr: string;
  startedAt: number;
  endedAt: number;
  /** stdout parsed as JSON (one document), or null when it is not JSON. */
  json: any;
}

export class CorralCli {
  private readonly bin: string;

  constructor(
    repoRoot: string,
    private readonly socket: string,
    private readonly env: Record<string, string>,
  ) {
    this.bin = join(repoRoot, 'bin', 'corral');
  }

  /** `corral --socket S --json ARGS...`; never throws on a non-zero exit. */
  run(args: string[], cwd?: string): Promise<CliRun> {
    const full = ['--socket', this.socket, '--json', ...args];
    const startedAt = Date.now();
    const child = spawn(process.execPath, [this.bin, ...full], { cwd, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve) => {
      child.once('close', (code) => {
        let json: any = null;
        try {
          json = stdout.trim() ? JSON.parse(stdout) : null;
        } catch {
          json = null;
        }
        resolve({ args, code: code ?? -1, stdout, stderr, startedAt, endedAt: Date.now(), json });
      });
    });
  }
}
