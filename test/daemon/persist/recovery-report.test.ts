import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { connectCalling as connect, RawClient } from '../../../harness/raw-client.ts';
import { killDaemon } from '../../helpers/restart.ts';
import { waitFor } from '../../../harness/wait.ts';

const REPORT_PROXY = fileURLToPath(new URL('../../fixtures/report-proxy.mjs', import.meta.url));

describe('reported state across a kill -9 of the daemon', () => {
  it('a pane blocked by a self report comes back with the same agent, state and source, and replayed reports are refused', async () => {
    // Before: the pane came back unknown, with no agent, and a replayed older ts was accepted.
    const dir = makeTempDir();
    const first = await startDaemon({ dir });
    let second: DaemonProcess | undefined;
    try {
      const a = await connect(first);
      // The pane's program relays reports from inside the pane and prints its self report on SIGUSR1.
      const relay = join(dir, 'relay.sock');
      const pane = await a.call('pane.spawn', { command: process.execPath, args: [REPORT_PROXY, relay], cwd: dir, env: { REPORT_PROXY_SELF_REPORT: 'v1;agent=myagent;state=blocked' } });
      await waitFor(async () => (await a.call('pane.read', { target: pane.id })).text.includes('proxy ready'), { what: 'the report relay to listen', timeoutMs: 60_000 });
      const viaPane = async (params: Record<string, unknown>) => {
        const client = await RawClient.connect(relay);
        const reply = await client.call(1, 'pane.reportAgent', { target: pane.id, agent: 'myagent', ...params });
        client.close();
        assert.ok(!reply.error, JSON.stringify(reply.error));
        return reply.result as { accepted: boolean; reason?: string };
      };
      const ts = Math.floor(Date.now() / 1000);
      assert.equal((await viaPane({ source: 'hook:myagent', state: 'working', seq: 5 })).accepted, true);
      assert.equal((await viaPane({ source: 'custom:ts', state: 'working', ts })).accepted, true);
      process.kill(pane.pid, 'SIGUSR1');
      const before = await waitFor(async () => {
        const info = await a.call('agent.get', { target: pane.id });
        return info.state === 'blocked' ? info : null;
      }, { what: 'the self-reported blocked state', timeoutMs: 60_000 });
      assert.deepEqual([before.agent, before.state, before.source], ['myagent', 'blocked', 'report:osc1337']);
      // The next daemon reads the state file: wait for it to hold the self report.
      const folder = join(dir, 'state', 'corral');
      const file = join(folder, readdirSync(folder).find((name) => name.startsWith('panes-') && name.endsWith('.json'))!);
      await waitFor(() => JSON.stringify(JSON.parse(readFileSync(file, 'utf8')).panes[0]?.arbiter?.reports ?? []).includes('osc1337'), { what: 'the self report in the state file', timeoutMs: 60_000 });
      a.client.close();
      const killedAt = Date.now();
      await killDaemon(first);

      second = await startDaemon({ dir });
      const b = await connect(second);
      const after = await waitFor(async () => {
        const info = await b.call('agent.get', { target: pane.id });
        return info.state !== 'unknown' ? info : null;
      }, { what: 'the recovered state', timeoutMs: 60_000 });
      assert.deepEqual([after.agent, after.identity, after.state, after.source], ['myagent', 'report', 'blocked', 'report:osc1337']);
      assert.equal((await b.call('pane.get', { target: pane.id })).recovered, true);

      // Reports replayed from before the restart: the same seq, an older ts.
      assert.deepEqual(await viaPane({ source: 'hook:myagent', state: 'idle', seq: 5 }), { accepted: false, reason: 'stale_seq' });
      assert.deepEqual(await viaPane({ source: 'custom:ts', state: 'idle', ts: ts - 5 }), { accepted: false, reason: 'out_of_order' });
      // The ring replayed into the new screen holds the self report's bytes: it is not accepted again.
      const sinceKill = Date.now() - killedAt;
      const explain = await b.call('agent.explain', { target: pane.id });
      const selfReport = explain.arbiter.evidence.find((e: any) => e.kind === 'report' && e.source === 'osc1337');
      assert.ok(selfReport.ageMs > sinceKill, `the self report is the one from before the kill: ${selfReport.ageMs} ms old, the kill was ${sinceKill} ms ago`);
      assert.deepEqual([explain.agent.state, explain.agent.source], ['blocked', 'report:osc1337']);
      b.client.close();
    } finally {
      if (second) await second.dispose();
      await first.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
