// Copilot CLI's usage through a real daemon (docs/usage.md, "Which Copilot CLI session is the pane's"):
// fake Copilots in real panes hold their sessions open as Copilot CLI 1.0.102 does and write its
// events.jsonl; each pane reads the session its own process holds, never another pane's, one outside
// Corral written last, or one a pane's process claims under another pid; tabs and a restart count nothing twice.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { connectCalling as connect } from '../../../harness/raw-client.ts';
import { waitFor } from '../../../harness/wait.ts';
import { killDaemon } from '../../helpers/restart.ts';

const FAKE_COPILOT = fileURLToPath(new URL('../../fixtures/agents/fake-copilot.mjs', import.meta.url));
const A = { input: 1000, output: 200, cacheRead: 300, cacheWrite: 0 };
const B = { input: 7, output: 3, cacheRead: 5, cacheWrite: 2 };
const OUTSIDE = { input: 50_000, output: 1, cacheRead: 1, cacheWrite: 1 };
const times = (t: typeof A, n: number) => ({ input: t.input * n, output: t.output * n, cacheRead: t.cacheRead * n, cacheWrite: t.cacheWrite * n });

type Client = Awaited<ReturnType<typeof connect>>;

async function spawnCopilot(client: Client, dir: string, name: string, env: Record<string, string>): Promise<string> {
  const pane = await client.call('pane.spawn', { command: process.execPath, args: [FAKE_COPILOT], name, cwd: dir, env: { CORRAL_AGENT: 'copilot', COPILOT_HOME: join(dir, 'copilot-home'), ...env } });
  await waitFor(async () => (await client.call('agent.get', { target: pane.id })).agent === 'copilot', { what: `${name} identified`, timeoutMs: 60_000 });
  return pane.id;
}

/** A line typed into the pane: one turn of the fake Copilot. */
async function type(client: Client, pane: string, text: string): Promise<void> {
  await client.call('pane.send', { target: pane, text, keys: ['Enter'] });
}

async function tokensOf(client: Client, pane: string): Promise<unknown> {
  const usage = (await client.call('agent.get', { target: pane })).usage;
  return typeof usage === 'object' ? usage.tokens : usage;
}

async function until(client: Client, pane: string, tokens: unknown, what: string): Promise<void> {
  await waitFor(async () => JSON.stringify(await tokensOf(client, pane)) === JSON.stringify(tokens), { what, timeoutMs: 30_000 });
}

describe('Copilot CLI usage through the daemon', () => {
  it("reads each pane's own session: not another pane's, not one outside Corral written last, not one claimed under another pid", async () => {
    const dir = makeTempDir();
    const daemon = await startDaemon({ dir });
    const client = await connect(daemon);
    // A Copilot outside Corral, in the same home and folder.
    const outside = spawn(process.execPath, [FAKE_COPILOT], { cwd: dir, env: { ...process.env, COPILOT_HOME: join(dir, 'copilot-home'), FAKE_USAGE: JSON.stringify(OUTSIDE) }, stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      let said = '';
      outside.stdout.setEncoding('utf8').on('data', (text: string) => (said += text));
      const outsideSession = await waitFor(() => /ready (\S+)/.exec(said)?.[1] ?? '', { what: 'the outside Copilot ready', timeoutMs: 30_000 });
      const a = await spawnCopilot(client, dir, 'a', { FAKE_USAGE: JSON.stringify(A) });
      const b = await spawnCopilot(client, dir, 'b', { FAKE_USAGE: JSON.stringify(B) });
      // Claims the outside session: holds a file in its folder named after the outside process's pid.
      const claimer = await spawnCopilot(client, dir, 'claimer', { FAKE_HOLD_AS: String(outside.pid), FAKE_SESSION_DIR: join(dir, 'copilot-home', 'session-state', outsideSession) });

      await type(client, a, 'first');
      await until(client, a, A, "a's first turn");
      await type(client, b, 'first');
      await until(client, b, B, "b's first turn");
      // The outside session is now the newest folder and the last written.
      outside.stdin.write('outside turn\n');
      await waitFor(() => said.includes('answered 1'), { what: 'the outside turn written', timeoutMs: 30_000 });
      await type(client, a, 'second');
      await until(client, a, times(A, 2), "a's second turn");

      const info = await client.call('agent.get', { target: a });
      assert.equal(info.usage.source, 'events:copilot');
      assert.equal(info.usage.model, 'mock-model');
      assert.equal(info.usage.skipped, 0);
      assert.deepEqual(await tokensOf(client, b), B, 'b reads only its own session');
      assert.equal(await tokensOf(client, claimer), 'unknown', 'a file named after another pid names nothing');
      const report = await client.call('usage.report', { by: 'agent' });
      assert.deepEqual(report.rows.map((row: any) => [row.label, row.tokens]), [['a', times(A, 2)], ['b', B]], 'the outside session is in no row');
      assert.equal(report.unknown, 1, 'the claimer');
    } finally {
      outside.kill('SIGTERM');
      client.client.close();
      await daemon.dispose();
    }
  });

  it('follows /clear and tabs without counting a record twice, and reads on after a restart', async () => {
    const dir = makeTempDir();
    const daemons: DaemonProcess[] = [await startDaemon({ dir })];
    let client = await connect(daemons[0]!);
    try {
      const pane = await spawnCopilot(client, dir, 'tabs', { FAKE_USAGE: JSON.stringify(A) });
      await type(client, pane, 'first');
      await until(client, pane, A, 'the first turn');
      const first = (await client.call('agent.get', { target: pane })).usage.since;

      await type(client, pane, '/clear');
      await type(client, pane, 'in the new session');
      await waitFor(async () => {
        const usage = (await client.call('agent.get', { target: pane })).usage;
        return usage.since !== first && JSON.stringify(usage.tokens) === JSON.stringify(A);
      }, { what: 'the new session, with its own figures', timeoutMs: 30_000 });
      await type(client, pane, '/new');
      for (const n of [1, 2, 3]) await type(client, pane, `in the new tab ${n}`);
      await until(client, pane, times(A, 3), 'the new tab');
      await type(client, pane, '/tab');
      await type(client, pane, 'back in the first tab');
      await until(client, pane, times(A, 2), 'the first tab, read on from where it was left');

      const total = async () => (await client.call('usage.report', { by: 'agent' })).rows.map((row: any) => row.tokens);
      await waitFor(async () => JSON.stringify(await total()) === JSON.stringify([times(A, 6)]), { what: 'six turns in all, each once', timeoutMs: 30_000 });

      client.client.close();
      await killDaemon(daemons[0]!);
      daemons.push(await startDaemon({ dir }));
      client = await connect(daemons[1]!);
      await until(client, pane, times(A, 2), 'the figures taken back after the restart');
      await type(client, pane, 'after the restart');
      await until(client, pane, times(A, 3), 'the turn after the restart, and none again');
      assert.deepEqual(await total(), [times(A, 7)]);
    } finally {
      client.client.close();
      for (const daemon of daemons) await daemon.dispose();
    }
  });
});
