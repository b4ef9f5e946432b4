import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connect, type CorralClient } from '../../src/client/index.ts';
import { MAX_MCP_MESSAGE_BYTES } from '../../src/mcp/server.ts';
import { MAX_FRAME_BYTES } from '../../src/protocol/framing.ts';
import { FAKE_AGENT } from '../helpers/agent-lab.ts';
import { CORRAL_BIN, startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { startCountingRelay, type CountingRelay } from '../helpers/counting-relay.ts';

/** Resolves once `check` holds, re-reading the daemon's status after each short pause. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never happened: ${what}`);
}

describe('corral mcp, driven by the MCP SDK client over stdio', () => {
  let daemon: DaemonProcess;
  let mcp: Client;
  let corral: CorralClient;
  let relay: CountingRelay;

  before(async () => {
    daemon = await startDaemon();
    // The server reaches the daemon through a relay that counts what it asks.
    relay = await startCountingRelay(daemon.socket, daemon.dir);
    corral = await connect({ socket: daemon.socket });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CORRAL_BIN, '--socket', relay.socket, 'mcp'],
      env: process.env as Record<string, string>,
      stderr: 'pipe',
    });
    mcp = new Client({ name: 'corral-test', version: '1.0.0' });
    await mcp.connect(transport);
  });

  after(async () => {
    await mcp?.close();
    corral?.close();
    await relay?.close();
    await daemon?.dispose();
  });

  async function tool(name: string, args: Record<string, unknown>, options: { signal?: AbortSignal } = {}): Promise<any> {
    const result = (await mcp.callTool({ name, arguments: args }, undefined, { ...options, timeout: 120_000 })) as {
      isError?: boolean;
      content: { type: string; text: string }[];
    };
    assert.ok(!result.isError, `${name}: ${result.content[0]?.text}`);
    return JSON.parse(result.content[0]!.text);
  }

  /** The file whose existence ends the fake agent's held turn (its "hold" prompt, FAKE_RELEASE). */
  const release = (name: string) => join(daemon.dir, `${name}-release`);

  /**
   * Ends the agents' held turns once the daemon has seen each of them work: a short timed turn could be
   * drawn over by the idle screen before a loaded daemon looked (its turn, and so its done after
   * sinceSeq, never seen), as test/daemon/waits/agent-wait.test.ts found.
   */
  async function heldTurns(names: string[], sinceSeq: number): Promise<void> {
    const working = await tool('wait_for_agents', { targets: names, until: ['working'], mode: 'all', sinceSeq, timeoutSeconds: 60 });
    assert.equal(working.outcome, 'matched', JSON.stringify(working));
    for (const name of names) writeFileSync(release(name), '');
  }

  it('lists the tools, each described for a model', async () => {
    const { tools } = await mcp.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'acknowledge_attention',
      'agent_usage',
      'agents_needing_attention',
      'answer_agent',
      'explain_agent',
      'list_agents',
      'list_fleet',
      'policy_decision',
      'prompt_agent',
      'read_agent',
      'spawn_agent',
      'wait_for_agents',
    ]);
    for (const t of tools) assert.ok((t.description ?? '').length > 80, t.name);
  });

  it('answers agent_usage with the rollup, no agent counted as zero', async () => {
    const usage = await tool('agent_usage', { hours: 2, by: 'model' });
    assert.equal(usage.by, 'model');
    assert.deepEqual(usage.rows, []);
    assert.equal(typeof usage.unknown, 'number');
    assert.equal(usage.currency, 'USD');
  });

  it('drives three fake agents from prompt to done, reading and answering the one that blocks', async () => {
    const names = ['alpha', 'beta', 'gamma'];
    for (const name of names) {
      await tool('spawn_agent', { command: '/usr/bin/env', args: ['CORRAL_AGENT=claude', process.execPath, FAKE_AGENT], folder: daemon.dir, name, env: { FAKE_RELEASE: release(name) } });
    }
    const ready = await tool('wait_for_agents', { targets: names, until: ['idle'], mode: 'all', timeoutSeconds: 60 });
    assert.equal(ready.outcome, 'matched');
    let { seq } = await tool('list_agents', {});
    // alpha's and gamma's turns are held until the daemon has seen them work (heldTurns).
    await tool('prompt_agent', { target: 'alpha', text: 'hold' });
    await tool('prompt_agent', { target: 'beta', text: 'perm' });
    await tool('prompt_agent', { target: 'gamma', text: 'hold' });
    await heldTurns(['alpha', 'gamma'], seq);

    const remaining = new Set(names);
    let answered = 0;
    while (remaining.size > 0) {
      const woke = await tool('wait_for_agents', { targets: [...remaining], until: ['done', 'blocked'], sinceSeq: seq, timeoutSeconds: 60 });
      assert.equal(woke.outcome, 'matched', JSON.stringify(woke));
      seq = woke.seq;
      for (const name of woke.matched as string[]) {
        if (woke.states[name] === 'blocked') {
          // The wait hands over what the agent asks; the list shows it too, once the form is drawn to its last line.
          assert.equal(woke.prompts[name].kind, 'permission');
          let prompt: any;
          await until(async () => {
            prompt = (await tool('list_agents', {})).agents.find((a: { name: string }) => a.name === name).prompt;
            return prompt?.choices.some((c: { id: string }) => c.id === 'explain') === true;
          }, 'the whole permission form in list_agents');
          assert.match(prompt.text, /Do you want to proceed\?/);
          const answer = await tool('answer_agent', { target: name, promptId: prompt.id, choice: prompt.choices.find((c: { default: boolean }) => c.default).id });
          assert.notEqual(answer.state, 'blocked');
          answered += 1;
        } else {
          remaining.delete(name);
        }
      }
    }
    assert.equal(answered, 1);
    const { agents } = await tool('list_agents', {});
    assert.deepEqual(agents.map((a: { name: string; state: string }) => [a.name, a.state]), names.map((n) => [n, 'done']));
    const why = await tool('explain_agent', { target: 'alpha' });
    assert.equal(why.agent.name, 'alpha');
    // The answered block was acknowledged by the answer: the inbox holds the three done turns, one per agent
    // (the live picture follows the daemon's events, which the waits above may have read first).
    const doneItems = (attention: any) => attention.items.map((item: { pane: { name: string }; state: string }) => [item.pane.name, item.state]).sort();
    await until(async () => JSON.stringify(doneItems(await tool('agents_needing_attention', {}))) === JSON.stringify(names.map((n) => [n, 'done'])), 'the three done turns in the inbox');
    // Answered from the live picture: once it is started, asking again asks the daemon nothing.
    const asked = relay.methods.length;
    const inbox = await tool('agents_needing_attention', {});
    assert.deepEqual(relay.methods.slice(asked), [], 'no read behind the attention tool');
    assert.deepEqual(inbox.needsYou.map((a: { name: string; state: string }) => [a.name, a.state]).sort(), names.map((n) => [n, 'done']));
    const cleared = await tool('acknowledge_attention', { all: true });
    assert.equal(cleared.acknowledged.length, 3);
    const left = await tool('agents_needing_attention', {});
    assert.deepEqual(left.items, []);
    // The reminders are gone, the agents are not seen: they still need you (the count follows the states).
    assert.equal(left.needsYou.length, 3);
    // The policy can be read, and paused as a kill switch, never changed: this daemon has none loaded.
    const policy = await tool('policy_decision', { target: 'alpha' });
    assert.deepEqual([policy.status.active, policy.status.rules, policy.check.decision], [false, 0, null]);
    assert.equal((await tool('policy_decision', { pause: true })).status.paused, true);
  });

  it('a wait that times out returns timed_out for the model to call again', async () => {
    const woke = await tool('wait_for_agents', { targets: ['alpha'], until: ['blocked'], timeoutSeconds: 0 });
    assert.equal(woke.outcome, 'timed_out');
    assert.deepEqual(woke.states, { alpha: 'done' });
  });

  it('a cancelled wait is cancelled in the daemon too', async () => {
    const cancel = new AbortController();
    const pending = tool('wait_for_agents', { targets: ['alpha'], until: ['blocked'], timeoutSeconds: 600 }, { signal: cancel.signal });
    await until(async () => (await corral.call('server.status')).waits === 1, 'the daemon holds the wait');
    cancel.abort();
    await assert.rejects(pending);
    await until(async () => (await corral.call('server.status')).waits === 0, 'the daemon dropped the wait');
    // The server goes on serving after a cancellation.
    assert.equal((await tool('list_agents', {})).agents.length, 3);
  });

  it('reports a daemon error as a tool error with its stable code', async () => {
    const result = (await mcp.callTool({ name: 'prompt_agent', arguments: { target: 'nobody', text: 'hi' } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /^pane_not_found: /);
  });

  it('groups: agents spawned into a workspace, waited on as @WORKSPACE and with allAgents, prompted together, waited on and read in one call', async () => {
    for (const name of ['t1', 't2']) {
      const pane = await tool('spawn_agent', { command: '/usr/bin/env', args: ['CORRAL_AGENT=claude', process.execPath, FAKE_AGENT], folder: daemon.dir, name, workspace: 'team', env: { FAKE_RELEASE: release(name) } });
      assert.equal(pane.workspace, 'team');
    }
    const ready = await tool('wait_for_agents', { targets: ['@team'], until: ['idle'], mode: 'all', timeoutSeconds: 60 });
    assert.deepEqual([...ready.matched].sort(), ['t1', 't2']);
    const all = await tool('wait_for_agents', { allAgents: true, until: ['idle'], mode: 'all', timeoutSeconds: 60 });
    assert.deepEqual(Object.keys(all.states).sort(), ['alpha', 'beta', 'gamma', 't1', 't2']);

    const { seq } = await tool('list_agents', { workspace: 'team' });
    const prompted = await tool('prompt_agent', { target: '@team', text: 'hold' });
    assert.equal(prompted.results.length, 2);
    assert.ok(prompted.results.every((r: { result?: { delivered?: boolean } }) => r.result?.delivered === true), JSON.stringify(prompted));
    await heldTurns(['t1', 't2'], seq);
    const done = await tool('wait_for_agents', { targets: ['@team'], until: ['done'], mode: 'all', sinceSeq: seq, read: true, timeoutSeconds: 60 });
    assert.equal(done.outcome, 'matched', JSON.stringify(done));
    assert.deepEqual(Object.keys(done.screens).sort(), ['t1', 't2']);
    assert.match(done.screens.t1, /Held turn complete\./);
    const reads = await tool('read_agent', { target: '@team' });
    assert.deepEqual(reads.results.map((r: { result: { text: string } }) => /Held turn complete\./.test(r.result.text)), [true, true]);
    const why = await tool('explain_agent', { target: 't?' });
    assert.deepEqual(why.results.map((r: { result: { agent: { name: string } } }) => r.result.agent.name), ['t1', 't2']);

    const refused = (await mcp.callTool({ name: 'answer_agent', arguments: { target: '@team', choice: 1 } })) as { isError?: boolean; content: { text: string }[] };
    assert.equal(refused.isError, true);
    assert.match(refused.content[0]!.text, /^invalid_params: "@team" names 2 panes .*answer_agent takes one/);
  });

  it('a wait on a pane with no recognised agent says no_agent at once, unless allowUnknown', async () => {
    const pane = await tool('spawn_agent', { command: 'sh', args: ['-c', 'echo plain shell; exec sleep 300'], folder: daemon.dir, name: 'plain' });
    await until(async () => (await corral.call('pane.read', { target: pane.id })).text.includes('plain shell'), 'the shell to draw');
    const refused = (await mcp.callTool({ name: 'wait_for_agents', arguments: { targets: ['plain'] } })) as { isError?: boolean; content: { text: string }[] };
    assert.equal(refused.isError, true);
    assert.match(refused.content[0]!.text, /^no_agent: /);
    const allowed = await tool('wait_for_agents', { targets: ['plain'], allowUnknown: true, timeoutSeconds: 0 });
    assert.equal(allowed.outcome, 'timed_out');
  });

  it('answers a 50 MiB tool call with a tool error naming the limit, and keeps serving', async () => {
    const text = 'x'.repeat(50 * 1024 * 1024);
    const result = (await mcp.callTool({ name: 'prompt_agent', arguments: { target: 'nobody', text } }, undefined, { timeout: 120_000 })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, new RegExp(`^arguments_too_large: the message is \\d+ bytes; corral mcp takes at most ${MAX_MCP_MESSAGE_BYTES}`));
    assert.ok(Array.isArray((await tool('list_agents', {})).agents), 'the server still answers');
  });

  it("says a 2 MiB prompt is over the daemon's request limit (frame_too_large), and its connection goes on", async () => {
    const result = (await mcp.callTool({ name: 'prompt_agent', arguments: { target: 'nobody', text: 'x'.repeat(2 * 1024 * 1024) } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, new RegExp(`^frame_too_large: the agent.prompt request is \\d+ bytes; the daemon takes a request of at most ${MAX_FRAME_BYTES} bytes`));
    const status = await corral.call('server.status', {});
    assert.ok(status);
    assert.ok(Array.isArray((await tool('list_agents', {})).agents));
  });

  it('spawn_agent takes env, size and workspace; a blocked agent refuses a prompt naming the answer_agent tool', async () => {
    const pane = await tool('spawn_agent', {
      command: '/usr/bin/env',
      args: ['CORRAL_AGENT=claude', process.execPath, FAKE_AGENT],
      folder: daemon.dir,
      name: 'sized',
      workspace: 'lab',
      env: { MCP_SPAWN_MARK: 'from-the-tool' },
      cols: 101,
      rows: 27,
    });
    assert.equal(pane.workspace, 'lab');
    await tool('wait_for_agents', { targets: ['sized'], until: ['idle'], timeoutSeconds: 60 });
    const screen = await tool('read_agent', { target: 'sized' });
    assert.ok(!screen.text.endsWith('\n'), 'read_agent leaves out the blank rows below the text');
    const info = await corral.call('pane.get', { target: 'sized' });
    assert.deepEqual([info.cols, info.rows], [101, 27]);
    assert.match(readFileSync(`/proc/${info.pid}/environ`, 'latin1'), /(^|\0)MCP_SPAWN_MARK=from-the-tool\0/);
    await tool('wait_for_agents', { targets: ['sized'], until: ['idle'], timeoutSeconds: 60 });
    const { seq } = await tool('prompt_agent', { target: 'sized', text: 'perm' });
    const blocked = await tool('wait_for_agents', { targets: ['sized'], until: ['blocked'], sinceSeq: seq, timeoutSeconds: 60 });
    assert.equal(blocked.outcome, 'matched', JSON.stringify(blocked));
    const refused = (await mcp.callTool({ name: 'prompt_agent', arguments: { target: 'sized', text: 'more' } })) as { isError?: boolean; content: { text: string }[] };
    assert.equal(refused.isError, true);
    assert.match(refused.content[0]!.text, /^agent_blocked: .*answer_agent tool/);
    assert.doesNotMatch(refused.content[0]!.text, /corral agent answer/);
  });

  it("spawn_agent without a folder starts the agent in the MCP server's own folder, as its schema says", async () => {
    const { tools } = await mcp.listTools();
    const schema = tools.find((t) => t.name === 'spawn_agent')!.inputSchema as { required?: string[] };
    assert.deepEqual(schema.required, ['command']);
    // The server was started from this test's folder (the transport's default cwd), not the daemon's.
    const pane = await tool('spawn_agent', { command: 'sh', args: ['-c', 'exec sleep 300'], name: 'here' });
    assert.equal(pane.cwd, process.cwd());
    assert.notEqual(pane.cwd, daemon.dir);
    const relative = await tool('spawn_agent', { command: 'sh', args: ['-c', 'exec sleep 300'], name: 'below', folder: 'docs' });
    assert.equal(relative.cwd, `${process.cwd()}/docs`);
    await corral.call('pane.kill', { target: 'here' });
    await corral.call('pane.kill', { target: 'below' });
  });

  it('prompt_agent queues a prompt to a working agent by default, types it with now, and names composer for a draft', async () => {
    await tool('spawn_agent', { command: '/usr/bin/env', args: ['CORRAL_AGENT=claude', 'FAKE_WORK_MS=600000', process.execPath, FAKE_AGENT], folder: daemon.dir, name: 'steady' });
    await tool('wait_for_agents', { targets: ['steady'], until: ['idle'], timeoutSeconds: 60 });
    assert.equal((await tool('prompt_agent', { target: 'steady', text: 'long job' })).delivered, true);
    await tool('wait_for_agents', { targets: ['steady'], until: ['working'], timeoutSeconds: 60 });
    assert.deepEqual(await tool('prompt_agent', { target: 'steady', text: 'next step' }), { queued: true, position: 1 });
    assert.equal((await tool('prompt_agent', { target: 'steady', text: 'steer now', now: true })).delivered, true);
    await corral.call('agent.clearQueue', { target: 'steady' });
    await corral.call('pane.kill', { target: 'steady' });

    await tool('spawn_agent', { command: '/usr/bin/env', args: ['CORRAL_AGENT=claude', process.execPath, FAKE_AGENT], folder: daemon.dir, name: 'drafted' });
    await tool('wait_for_agents', { targets: ['drafted'], until: ['idle'], timeoutSeconds: 60 });
    await corral.call('agent.prompt', { target: 'drafted', text: 'half a thought', submit: false });
    await until(async () => (await corral.call('agent.get', { target: 'drafted' })).composer === 'half a thought', 'the draft in agent.get');
    const refused = (await mcp.callTool({ name: 'prompt_agent', arguments: { target: 'drafted', text: 'more' } })) as { isError?: boolean; content: { text: string }[] };
    assert.equal(refused.isError, true);
    assert.match(refused.content[0]!.text, /^composer_not_empty: .*"half a thought".*composer: "replace" or "append"/);
    assert.equal((await tool('prompt_agent', { target: 'drafted', text: 'a new prompt', composer: 'replace' })).delivered, true);
    await corral.call('pane.kill', { target: 'drafted' });
  });
});
