import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { CORRAL_BIN } from '../../../harness/daemon.ts';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

const AGENTS = fileURLToPath(new URL('../../fixtures/agents/', import.meta.url));

describe('the arbiter through real panes', () => {
  const session = useDaemon();
  const { call, agentUntil } = session;

  // The stand-in agents (nested/claude) read their own arguments: no hooks are added to their launch.
  const spawn = (command: string, args: string[], env: Record<string, string> = {}) =>
    call('pane.spawn', { command, args, cwd: session.daemon.dir, env, integrate: false });

  it('takes agent and state from an in-band self report printed by a shell script', async () => {
    const pane = await spawn(join(AGENTS, 'self-report.sh'), ['claude', 'working', 'plain']);
    const info = await agentUntil(pane.id, (i) => i.state === 'working', 'the reported working state');
    assert.equal(info.agent, 'claude');
    assert.equal(info.identity, 'report');
    assert.equal(info.rule, 'report');
    assert.equal(info.source, 'report:osc1337');
    await call('pane.kill', { target: pane.id });
  });

  it('lets a reported working outrank a weak prompt box until the screen is still, and a visible form win at once', async () => {
    const idle = await spawn(join(AGENTS, 'self-report.sh'), ['claude', 'working', 'prompt']);
    const form = await spawn(join(AGENTS, 'self-report.sh'), ['claude', 'working', 'form']);
    // The program's own word outranks a box Claude Code also draws through a turn (docs/arbitration.md).
    const pushed = await agentUntil(idle.id, (i) => i.rule === 'pushed_working', 'the reported working over the prompt box');
    assert.deepEqual([pushed.state, pushed.source], ['working', 'report:osc1337']);
    // Still for the quiet window (5 s), the box speaks again.
    const idleInfo = await agentUntil(idle.id, (i) => i.rule === 'screen_rule', 'the prompt box once the screen is still', 20000);
    assert.equal(idleInfo.source, 'screen:prompt_box');
    assert.ok(idleInfo.state === 'idle' || idleInfo.state === 'done', idleInfo.state);
    const formInfo = await agentUntil(form.id, (i) => i.state === 'blocked', 'the permission form');
    assert.equal(formInfo.source, 'screen:permission_form_footer');
    const explain = await call('agent.explain', { target: form.id });
    const report = explain.arbiter.evidence.find((e: any) => e.kind === 'report');
    assert.ok(report, 'the self report is listed as evidence');
    assert.equal(report.decided, false);
    await call('pane.kill', { target: idle.id });
    await call('pane.kill', { target: form.id });
  });

  it('keeps a self report written by a program the moment it takes the foreground from a shell', async () => {
    // The shell's job control gives the script a new process group just before it reports: the report
    // belongs to the script's generation however late the daemon notices the new foreground. The loop
    // (a builtin, no process) keeps the shell in the foreground for a while after the echo of the line.
    const shell = await spawn('bash', ['--norc', '--noprofile', '-i'], { PS1: 'ready$ ' });
    await session.screenContains(shell.id, 'ready$');
    await call('pane.send', { target: shell.id, text: `for ((i = 0; i < 20000; i++)); do :; done; ${join(AGENTS, 'self-report.sh')} claude working plain`, keys: ['Enter'] });
    await session.screenContains(shell.id, 'reported claude working');
    // Reading the pane reads its foreground afresh: the script's new process group is seen by now.
    const pane = await call('pane.get', { target: shell.id });
    assert.notEqual(pane.process?.pgid, shell.pid, 'the script runs in its own process group');
    const info = await call('agent.explain', { target: shell.id });
    assert.equal(info.agent.agent, 'claude', 'the report outlives the first look at the new foreground');
    assert.equal(info.agent.state, 'working');
    assert.equal(info.agent.source, 'report:osc1337');
    assert.deepEqual(info.arbiter.rejections, []);
    await call('pane.kill', { target: shell.id });
  });

  it('holds a working-to-idle screen change for the debounce window before publishing it', async () => {
    const pane = await spawn(process.execPath, [join(AGENTS, 'fake-claude.mjs')], { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '700' });
    await agentUntil(pane.id, (i) => i.rawState === 'idle', 'the first idle prompt');
    await call('pane.send', { target: pane.id, text: 'go', keys: ['Enter'] });
    await agentUntil(pane.id, (i) => i.state === 'working', 'working');
    // Watch the screen closely: the last moment it still showed the spinner bounds the idle draw from below.
    let lastWorkingSeen = Date.now();
    let firstIdleSeen = 0;
    let pendingSeen = false;
    await waitFor(
      async () => {
        const now = Date.now();
        const text = (await call('pane.read', { target: pane.id })).text as string;
        if (text.includes('Tempering')) lastWorkingSeen = now;
        else if (text.includes('Task complete.')) {
          if (firstIdleSeen === 0) firstIdleSeen = Date.now();
          const explain = await call('agent.explain', { target: pane.id });
          if (explain.arbiter.pendingDebounce?.state === 'idle') pendingSeen = true;
          return explain.agent.rawState === 'idle';
        }
        return false;
      },
      { what: 'the idle state after the debounce', timeoutMs: 8000 },
    );
    const info = await call('agent.get', { target: pane.id });
    const heldFor = info.stateSince - lastWorkingSeen;
    assert.ok(heldFor >= 400, `idle was published ${heldFor} ms after the last working screen; the debounce is 450 ms`);
    assert.ok(info.stateSince - firstIdleSeen < 2000, 'idle was published within the tolerance after the screen settled');
    assert.ok(pendingSeen || info.stateSince - firstIdleSeen >= 0, 'the pending transition was visible in explain or already due');
    assert.equal(info.state, 'done', 'a finished turn is done until seen');
    await call('pane.kill', { target: pane.id });
  });

  it('accepts a hook report from below the pane agent and rejects one from a nested agent', async () => {
    const env = (out: string) => ({ CORRAL_BIN_PATH: CORRAL_BIN, REPORT_OUT: join(session.daemon.dir, out) });
    const hooked = await spawn(join(AGENTS, 'nested', 'claude'), ['hook'], env('hook.json'));
    const nested = await spawn(join(AGENTS, 'nested', 'claude'), ['nested'], env('nested.json'));
    const read = (file: string) => waitFor(() => {
      try {
        const text = readFileSync(join(session.daemon.dir, file), 'utf8');
        return text.trim().endsWith('}') ? JSON.parse(text) : null;
      } catch {
        return null;
      }
    }, { what: `${file} written by the hook`, timeoutMs: 15000 });
    assert.deepEqual(await read('hook.json'), { accepted: true });
    assert.deepEqual(await read('nested.json'), { accepted: false, reason: 'nested_agent' });
    const hookedInfo = await agentUntil(hooked.id, (i) => i.state === 'working', 'the accepted hook report');
    assert.equal(hookedInfo.agent, 'claude');
    const nestedInfo = await call('agent.get', { target: nested.id });
    assert.equal(nestedInfo.agent, 'claude', 'the nested agent never takes over the pane');
    assert.notEqual(nestedInfo.state, 'blocked');
    const explain = await call('agent.explain', { target: nested.id });
    assert.ok(explain.arbiter.rejections.some((r: any) => r.reason === 'nested_agent' && r.source === 'hook:codex'));
    await call('pane.kill', { target: hooked.id });
    await call('pane.kill', { target: nested.id });
  });

  it('accepts the hook of an agent identified through CORRAL_AGENT and a wrapper (CORRAL_AGENT=claude wrapper -- claude)', async () => {
    // Before: refused as nested_agent (the claude under the wrapper) or not_under_agent, and the hook exited 0 unnoticed.
    const out = (file: string) => ({ CORRAL_BIN_PATH: CORRAL_BIN, REPORT_OUT: join(session.daemon.dir, file), CORRAL_AGENT: 'claude' });
    const wrapped = await spawn(join(AGENTS, 'wrapper'), [join(AGENTS, 'nested', 'claude'), 'hook'], out('wrapped.json'));
    const hinted = await spawn(join(AGENTS, 'wrapper'), [join(AGENTS, 'nested', 'hook')], out('hinted.json'));
    const read = (file: string) => waitFor(() => {
      try {
        const text = readFileSync(join(session.daemon.dir, file), 'utf8');
        return text.trim().endsWith('}') ? JSON.parse(text) : null;
      } catch {
        return null;
      }
    }, { what: `${file} written by the hook`, timeoutMs: 15000 });
    assert.deepEqual(await read('wrapped.json'), { accepted: true });
    assert.deepEqual(await read('hinted.json'), { accepted: true });
    await agentUntil(wrapped.id, (i) => i.agent === 'claude' && i.state === 'working', 'the wrapped agent working');
    await agentUntil(hinted.id, (i) => i.agent === 'claude' && i.state === 'working', 'the hinted agent working');
    await call('pane.kill', { target: wrapped.id });
    await call('pane.kill', { target: hinted.id });
  });

  it('publishes the final state once when the agent process exits, then forgets the agent', async () => {
    const pane = await spawn(process.execPath, [join(AGENTS, 'fake-claude.mjs')], { CORRAL_AGENT: 'claude' });
    await agentUntil(pane.id, (i) => i.rawState === 'idle', 'the idle prompt');
    await call('pane.send', { target: pane.id, text: 'exit', keys: ['Enter'] });
    const info = await agentUntil(pane.id, (i) => i.paneState === 'exited' && i.agent === null, 'the release');
    assert.equal(info.state, 'unknown');
    await call('pane.kill', { target: pane.id });
  });
});
