import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.ts';
import { FAKE_CLAUDE, useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';

const REPORT_PROXY = fileURLToPath(new URL('../fixtures/report-proxy.mjs', import.meta.url));

describe('agent list and top show display metadata and workspaces, as a user runs them', () => {
  const session = useDaemon();
  const corral = (...args: string[]) => runCli(['--socket', session.daemon.socket, ...args]);

  it('prints the reported title, state label and tokens, a workspace column and whole names', async () => {
    const name = 'integration-tests-for-the-payment-service';
    // Metadata is taken only from a process in the pane: a relay beside the fake agent reports from inside.
    const relay = join(session.daemon.dir, 'metadata-relay.sock');
    const script = `${JSON.stringify(process.execPath)} ${JSON.stringify(REPORT_PROXY)} ${JSON.stringify(relay)} >/dev/null & exec ${JSON.stringify(process.execPath)} ${JSON.stringify(FAKE_CLAUDE)}`;
    const pane = await session.call('pane.spawn', {
      command: 'sh',
      args: ['-c', script],
      cwd: session.daemon.dir,
      name,
      workspace: 'team',
      env: { CORRAL_AGENT: 'claude' },
    });
    await session.agentUntil(pane.id, (i) => i.agent === 'claude' && i.state === 'idle', 'the idle prompt box');
    await waitFor(() => existsSync(relay), { what: 'the relay to listen' });
    const reported = await runCli(['--socket', relay, 'pane', 'metadata', name, '--source', 'test', '--title', 'Fixing the parser', '--state-label', 'thinking', '--tokens', '12345']);
    assert.equal(reported.code, 0, reported.stderr);

    const list = await corral('agent', 'list');
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^ID +NAME +AGENT +STATE +TOKENS +TITLE$/m);
    assert.match(list.stdout, new RegExp(`team:p\\d+ +${name} +claude +idle \\S+ +12k +\\[thinking\\] Fixing the parser`));

    const top = await corral('top', '--once', '--cols', '160');
    assert.equal(top.code, 0, top.stderr);
    assert.match(top.stdout, /STATE +AGE +AGENT +WS +NAME +TITLE +TOKENS +Q/);
    assert.match(top.stdout, new RegExp(`idle +\\S+ +claude +team +${name} +\\[thinking\\] Fixing the parser +12k`));
  });
});
