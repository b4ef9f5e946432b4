import { fileURLToPath } from 'node:url';
import { DaemonConnection } from '../../src/cli/with-daemon.ts';
import { CorralError } from '../../src/protocol/errors.ts';
import { AGENT_LIST, AGENT_WAIT, PANE_SEND, PANE_SPAWN } from '../../src/protocol/methods/index.ts';
import type { MethodDecl } from '../../src/protocol/method.ts';
import { startDaemon, type DaemonProcess } from '../../harness/daemon.ts';

export const FAKE_AGENT = fileURLToPath(new URL('../fixtures/agents/fake-claude.mjs', import.meta.url));

/** A real daemon, a typed client that matches replies by id (so waits may run concurrently), and fake agents. */
export class AgentLab {
  private constructor(
    readonly daemon: DaemonProcess,
    readonly client: DaemonConnection,
  ) {}

  static async start(): Promise<AgentLab> {
    const daemon = await startDaemon();
    return new AgentLab(daemon, await DaemonConnection.connect(daemon.socket));
  }

  call<P, R>(method: MethodDecl<P, R>, params: P): Promise<R> {
    return this.client.call(method, params);
  }

  /** The error a call fails with; fails the test if it succeeds. */
  async failure<P, R>(method: MethodDecl<P, R>, params: P): Promise<CorralError> {
    try {
      const result = await this.client.call(method, params);
      throw new Error(`${method.name} should fail, got ${JSON.stringify(result)}`);
    } catch (error) {
      if (error instanceof CorralError) return error;
      throw error;
    }
  }

  /** A fake Claude in a named pane, returned once its idle prompt box is detected (waited for with agent.wait itself). */
  async agent(name: string, workMs: number, env: Record<string, string> = {}): Promise<string> {
    await this.call(PANE_SPAWN, {
      command: process.execPath,
      args: [FAKE_AGENT],
      name,
      cwd: this.daemon.dir,
      env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: String(workMs), ...env },
    });
    // A hang guard, not a figure: a loaded machine can take seconds to start a node process.
    await this.call(AGENT_WAIT, { targets: [name], until: ['idle'], timeoutMs: 60_000 });
    return name;
  }

  /** Types a line into the agent: it works for its FAKE_WORK_MS, then idles ("perm" leads to a permission form). */
  async type(target: string, text: string): Promise<void> {
    await this.call(PANE_SEND, { target, text, keys: ['Enter'] });
  }

  async seq(): Promise<number> {
    return (await this.call(AGENT_LIST, {})).seq;
  }

  async dispose(): Promise<void> {
    this.client.dispose();
    await this.daemon.dispose();
  }
}
