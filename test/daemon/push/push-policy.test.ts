// Web Push beside an approval policy: a prompt the policy answers by itself calls nobody; one it leaves
// to the person is pushed once the policy has said so. A real daemon, a local push service, and the
// fake agent started as a program named claude (identified by its process, as a policy requires).
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { AGENT_GET, AGENT_WAIT, INBOX_LIST, PANE_SEND, PANE_SPAWN, POLICY_LOG, PUSH_TEST, SERVER_RELOAD_CONFIG } from '../../../src/protocol/methods/index.ts';
import { waitFor } from '../../../harness/wait.ts';
import { FAKE_CLAUDE } from '../../helpers/session.ts';
import { PushLab } from './push-helpers.ts';

describe('Web Push beside an approval policy', () => {
  let lab: PushLab;
  let launcher = '';

  before(async () => {
    lab = await PushLab.start();
    writeFileSync(join(lab.dir, 'config', 'corral', 'policy.toml'), `[[rule]]\nname = "tests"\ncommand = 'npm test'\naction = "allow"\n`);
    await lab.call(SERVER_RELOAD_CONFIG, {});
    launcher = join(lab.dir, 'bin', 'claude');
    mkdirSync(join(lab.dir, 'bin'), { recursive: true });
    writeFileSync(launcher, `#!${process.execPath}\nimport(${JSON.stringify(pathToFileURL(FAKE_CLAUDE).href)});\n`);
    chmodSync(launcher, 0o755);
  });
  after(() => lab.dispose());

  it('pushes nothing for a prompt the policy answered, and pushes the one it left to the person', async () => {
    const pane = await lab.call(PANE_SPAWN, { command: launcher, args: [], name: 'ruled', cwd: lab.dir, env: { FAKE_WORK_MS: '200', FAKE_NO_DESCRIPTION: '1' } });
    // A hang guard, not a figure: a loaded machine can take seconds to start a node process.
    await lab.call(AGENT_WAIT, { targets: ['ruled'], until: ['idle'], timeoutMs: 60_000 });

    await lab.call(PANE_SEND, { target: pane.id, text: 'perm npm test', keys: ['Enter'] });
    const allowed = (await waitFor(async () => (await lab.call(POLICY_LOG, { target: pane.id })).decisions.find((decision) => decision.answered), { what: 'the policy answering npm test', timeoutMs: 30_000 }))!;
    assert.equal(allowed.action, 'allow');
    await waitFor(async () => (await lab.call(AGENT_GET, { target: pane.id })).state !== 'blocked', { what: 'the agent unblocked by the policy', timeoutMs: 30_000 });

    await lab.call(PANE_SEND, { target: pane.id, text: 'perm rm -rf /tmp/fake-agent-scratch', keys: ['Enter'] });
    const asked = (await waitFor(() => lab.pushed().find((push) => push.kind === 'attention' && push.pane === pane.id && push.state === 'blocked'), { what: 'the push of the prompt left to the person', timeoutMs: 30_000 }))!;
    assert.match(asked.body, /rm -rf \/tmp\/fake-agent-scratch/);
    const { items } = await lab.call(INBOX_LIST, {});
    assert.equal(asked.item, items.find((item) => item.pane.id === pane.id)!.id);
    const decisions = (await lab.call(POLICY_LOG, { target: pane.id })).decisions;
    assert.equal(decisions.at(-1)!.action, 'ask', 'pushed after the policy left it to the person');

    // A test push queues behind anything the channel sent: once it is answered, nothing of the first prompt is on its way.
    assert.equal((await lab.call(PUSH_TEST, { id: lab.deviceId })).results[0]!.status, 201);
    // The turn the policy's answer let go on ended done, and that is pushed (the device wants done too).
    const blocked = lab.pushed().filter((push) => push.pane === pane.id && push.state === 'blocked');
    assert.deepEqual(blocked.map((push) => [push.kind, push.promptId]), [['attention', asked.promptId]], 'no push, not even a quiet one, for the prompt the policy answered');
  });
});
