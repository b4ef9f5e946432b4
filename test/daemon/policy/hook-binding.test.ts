import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { CORRAL_BIN, makeTempDir } from '../../../harness/daemon.ts';
import { waitFor } from '../../../harness/wait.ts';
import { useDaemon } from '../../helpers/session.ts';

const SPOOF = fileURLToPath(new URL('../../fixtures/agents/spoof/', import.meta.url));

const PAYLOAD = JSON.stringify({ session_id: 's', hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'npm test' } });

describe("a permission hook gets the policy's decision only for its own pane, and only from under that pane's agent", () => {
  const dir = makeTempDir();
  mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
  writeFileSync(join(dir, 'config', 'corral', 'policy.toml'), `[[rule]]\ntool = "Bash"\ncommand = 'npm test'\naction = "allow"\n`);
  const session = useDaemon({ dir });

  it("answers the hook of pane A's agent, and nothing to pane C's hook naming A, to a job beside A's agent, or to a process outside every pane", async () => {
    const fifo = (name: string) => join(dir, `${name}.fifo`);
    // A: a background job beside claude, which runs each line written to A.fifo; C: another claude.
    await session.call('pane.spawn', { command: '/bin/bash', args: ['-c', `${SPOOF}runner ${fifo('A-bg')} & ${SPOOF}claude ${fifo('A')}; wait`], cwd: dir, name: 'A' });
    await session.call('pane.spawn', { command: '/bin/bash', args: ['-c', `${SPOOF}claude ${fifo('C')}`], cwd: dir, name: 'C' });
    await session.agentUntil('A', (info) => info.agent === 'claude' && info.identity === 'process', 'claude identified in A by its process');
    await session.agentUntil('C', (info) => info.agent === 'claude', 'claude identified in C');
    for (const name of ['A', 'A-bg', 'C']) await waitFor(() => existsSync(fifo(name)), { what: `${name}.fifo` });
    const paneA: string = (await session.call('pane.get', { target: 'A' })).id;

    let count = 0;
    /** The real hook command run with a PermissionRequest payload from `where`, naming pane A; what it printed. */
    const hook = async (where: 'A' | 'A-bg' | 'C' | 'outside'): Promise<string> => {
      count += 1;
      const out = join(dir, `hook-${count}.out`);
      const line = `echo ${Buffer.from(PAYLOAD).toString('base64')} | base64 -d | CORRAL_PANE=${paneA} CORRAL_HOOK_DEADLINE_MS=10000 ${process.execPath} ${CORRAL_BIN} report --hook claude > ${out}.tmp; mv ${out}.tmp ${out}`;
      if (where === 'outside') spawn('/bin/bash', ['-c', line], { env: { ...process.env, CORRAL_SOCKET: session.daemon.socket }, stdio: 'ignore' });
      else writeFileSync(fifo(where), `${line}\n`);
      const printed = await waitFor(() => (existsSync(out) ? { text: readFileSync(out, 'utf8') } : null), { what: `the hook run from ${where}`, timeoutMs: 20_000 });
      return printed!.text.trim() || '(nothing)';
    };

    assert.equal(await hook('C'), '(nothing)', "C's hook naming pane A");
    assert.equal(await hook('A-bg'), '(nothing)', "a job beside A's agent, not under it");
    assert.equal(await hook('outside'), '(nothing)', 'a process outside every pane');
    assert.deepEqual((await session.call('policy.log', { target: paneA })).decisions, [], 'no decision was taken for them');
    assert.deepEqual(JSON.parse(await hook('A')).hookSpecificOutput.decision, { behavior: 'allow' }, "A's own agent's hook");
    const decisions = (await session.call('policy.log', { target: paneA })).decisions;
    assert.deepEqual(decisions.map((d: any) => [d.source, d.action, d.answered]), [['hook', 'allow', true]]);
    // The refused callers are named where a refused report is: agent explain of A.
    const explained = JSON.stringify(await session.call('agent.explain', { target: paneA }));
    for (const reason of ['not_in_pane', 'not_under_agent']) assert.ok(explained.includes(reason), reason);
  });
});
