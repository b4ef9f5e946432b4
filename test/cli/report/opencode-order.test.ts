import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { integrate } from '../../../src/integration/integrate.ts';
import { ManifestSet } from '../../../src/manifest-store/manifest-set.ts';
import { CORRAL_BIN } from '../../../harness/daemon.ts';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

const TURN = fileURLToPath(new URL('../../fixtures/hooks/opencode/turn/', import.meta.url));
const REPORT_PROXY = fileURLToPath(new URL('../../fixtures/report-proxy.mjs', import.meta.url));

/** The real `corral report` with `input` on its stdin. */
function report(args: string[], input: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CORRAL_BIN, 'report', ...args], { stdio: ['pipe', 'ignore', 'ignore'], env });
    child.stdin.end(input);
    child.on('close', resolve);
  });
}

describe("OpenCode's per-launch plugin numbers its events", () => {
  const session = useDaemon();

  it('one hook at a time, the newest waiting event next, so that the last event of a recorded turn wins', async () => {
    // The events of one turn as OpenCode 1.18.33 handed them to the plugin (live check), in order.
    const events = readdirSync(TURN).sort().map((file) => readFileSync(join(TURN, file), 'utf8'));
    const dir = mkdtempSync(join(tmpdir(), 'corral-opencode-'));
    const calls = join(dir, 'calls');
    mkdirSync(calls);
    // The hook the plugin runs, here a sink keeping each payload under the --seq the plugin gave it
    // (written aside and renamed: the test never reads a payload still being written), and noting any
    // hook that started while another still ran.
    const sink = ['/bin/sh', '-c', `mkdir '${calls}/running' 2>/dev/null || touch '${calls}/overlap'; [ "$1" = --seq ] && cat > '${calls}'/"$2".part && mv '${calls}'/"$2".part '${calls}'/"$2".json; sleep 0.2; rmdir '${calls}/running'`, 'sink'];
    const spec = new ManifestSet().all().find((m) => m.spec.id === 'opencode')!.spec.integration!;
    const planned = integrate({ command: 'opencode', args: [], env: {} }, { spec, hookArgv: sink, dir, userEnv: {} })!;
    const plugin = await import(join(planned.env.OPENCODE_CONFIG_DIR!, 'plugins', 'corral.js'));
    const hooks = await plugin.CorralReport({});
    const payloads = () => readdirSync(calls).filter((file) => file.endsWith('.json'));
    // Three bursts, each fired within a millisecond as OpenCode does: while a hook runs, only the newest
    // waiting event goes next; the first of a burst goes at once if no hook runs by then.
    const bursts = [events.slice(0, 3), events.slice(3, 6), events.slice(6)];
    const idOf = (event: string): string => JSON.parse(event).id;
    const sentIds = () => payloads().map((file) => idOf(readFileSync(join(calls, file), 'utf8')));
    for (const burst of bursts) {
      for (const event of burst) await hooks.event({ event: JSON.parse(event) });
      await waitFor(() => sentIds().includes(idOf(burst.at(-1)!)) && !existsSync(join(calls, 'running')), { what: 'the last event of the burst to be sent', timeoutMs: 30_000 });
    }
    assert.equal(existsSync(join(calls, 'overlap')), false, 'no hook started while another ran');

    // Sent: the last event of each burst and at most one before it, numbered in the events' order.
    const numbered = payloads().map((file) => ({ seq: Number(file.replace(/\.json$/, '')), payload: readFileSync(join(calls, file), 'utf8') }));
    numbered.sort((a, b) => a.seq - b.seq);
    const order = numbered.map((call) => events.findIndex((event) => idOf(event) === idOf(call.payload)));
    assert.deepEqual([...order].sort((a, b) => a - b), order, 'numbers follow the events');
    for (const [i, burst] of bursts.entries()) {
      const from = bursts.slice(0, i).flat().length;
      const sent = order.filter((at) => at >= from && at < from + burst.length);
      assert.ok(sent.includes(from + burst.length - 1) && sent.length <= 2, `burst ${i + 1} sent ${sent.join(', ')}`);
    }

    // Replayed into a pane last event first (each later hook process starts later): --seq decides, the last event wins.
    const proxy = join(session.daemon.dir, 'opencode-proxy.sock');
    const pane = await session.call('pane.spawn', { command: process.execPath, args: [REPORT_PROXY, proxy], cwd: session.daemon.dir });
    // The socket file appears at bind(), before listen(): wait for the proxy's own word.
    await waitFor(async () => (await session.call('pane.read', { target: pane.id })).text.includes('proxy ready'), { what: 'the report proxy to listen', timeoutMs: 30_000 });
    const env: NodeJS.ProcessEnv = { ...process.env, CORRAL_SOCKET: proxy, CORRAL_HOOK_DEADLINE_MS: '20000' };
    delete env.CORRAL_PANE;
    const codes: Array<number | null> = [];
    for (const call of [...numbered].reverse()) {
      codes.push(await report(['--hook', 'opencode', '--target', pane.id, '--seq', String(call.seq), '--strict'], call.payload, env));
    }
    assert.deepEqual(codes, [0, ...numbered.slice(1).map(() => 1)], 'the last event is taken, every earlier one refused');
    const info = await session.call('agent.get', { target: pane.id });
    assert.deepEqual([info.agent, info.rawState], ['opencode', 'idle']);
    const explain = await session.call('agent.explain', { target: pane.id });
    assert.ok(explain.arbiter.rejections.every((r: any) => r.reason === 'stale_seq'));
    await session.call('pane.kill', { target: pane.id });
  });
});
