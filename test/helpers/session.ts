import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { RawClient } from '../../harness/raw-client.ts';
import { waitFor } from '../../harness/wait.ts';

export const FAKE_CLAUDE = fileURLToPath(new URL('../fixtures/agents/fake-claude.mjs', import.meta.url));

/** A real daemon and a raw client for one `describe`, with the calls its tests share. */
export interface DaemonSession {
  readonly daemon: DaemonProcess;
  readonly client: RawClient;
  /** The call's result; a JSON-RPC error is thrown with the reply's error as `rpc`. */
  call(method: string, params?: unknown): Promise<any>;
  /** The call's error; fails the test if the call succeeds. */
  callError(method: string, params?: unknown): Promise<any>;
  /** Polls `agent.get` until `accept` holds; the failure names `what` and the last answer. */
  agentUntil(target: string, accept: (info: any) => boolean, what: string, timeoutMs?: number): Promise<any>;
  /** Polls the screen until it shows `text`, and returns it. */
  screenContains(target: string, text: string): Promise<string>;
  /** The fake Claude in a new pane, returned once its idle prompt box is detected. */
  fakeAgent(workMs: number, extra?: { name?: string; env?: Record<string, string> }): Promise<string>;
}

/** Starts a daemon before the enclosing `describe`'s tests and stops it after them. */
export function useDaemon(options: Parameters<typeof startDaemon>[0] = {}): DaemonSession {
  let daemon: DaemonProcess | undefined;
  let client: RawClient | undefined;
  let nextId = 1;

  before(async () => {
    daemon = await startDaemon(options);
    client = await RawClient.connect(daemon.socket);
  });

  after(async () => {
    client?.close();
    await daemon?.dispose();
  });

  const session: DaemonSession = {
    get daemon() {
      assert.ok(daemon, 'the daemon starts in before()');
      return daemon;
    },
    get client() {
      assert.ok(client, 'the client connects in before()');
      return client;
    },
    async call(method, params) {
      const reply = await session.client.call(nextId++, method, params);
      if (reply.error) throw Object.assign(new Error(reply.error.message), { rpc: reply.error });
      return reply.result;
    },
    async callError(method, params) {
      const reply = await session.client.call(nextId++, method, params);
      assert.ok(reply.error, `${method} should fail, got ${JSON.stringify(reply.result)}`);
      return reply.error;
    },
    async agentUntil(target, accept, what, timeoutMs = 8000) {
      let info: any;
      try {
        await waitFor(async () => accept((info = await session.call('agent.get', { target }))), { what, timeoutMs });
      } catch (error) {
        throw new Error(`${(error as Error).message}; last: ${JSON.stringify(info)}`);
      }
      return info;
    },
    async screenContains(target, text) {
      let screen = '';
      try {
        await waitFor(async () => (screen = (await session.call('pane.read', { target })).text).includes(text), { what: `"${text}" on ${target}` });
      } catch (error) {
        throw new Error(`${(error as Error).message}; the screen:\n${screen}`);
      }
      return screen;
    },
    async fakeAgent(workMs, extra = {}) {
      const pane = await session.call('pane.spawn', {
        command: process.execPath,
        args: [FAKE_CLAUDE],
        cwd: session.daemon.dir,
        ...(extra.name ? { name: extra.name } : {}),
        env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: String(workMs), ...extra.env },
      });
      await session.agentUntil(pane.id, (i) => i.agent === 'claude' && i.rawState === 'idle', 'the idle prompt box');
      return pane.id;
    },
  };
  return session;
}
