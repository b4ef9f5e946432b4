import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { DaemonConnection } from '../../../src/cli/with-daemon.ts';
import { EVENT } from '../../../src/protocol/notifications.ts';
import { AGENT_GET } from '../../../src/protocol/methods/agent.ts';
import { EVENTS_SUBSCRIBE, type AnyCorralEvent } from '../../../src/protocol/methods/events.ts';
import { PANE_READ, PANE_SPAWN } from '../../../src/protocol/methods/pane.ts';
import { PANE_REPORT_AGENT } from '../../../src/protocol/methods/report.ts';
import { PANE_REPORT_METADATA } from '../../../src/protocol/methods/metadata.ts';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { waitFor } from '../../../harness/wait.ts';

const REPORT_PROXY = fileURLToPath(new URL('../../fixtures/report-proxy.mjs', import.meta.url));

describe('agent events carry the agent as the daemon computed it', () => {
  let daemon: DaemonProcess;
  let control: DaemonConnection;
  let listener: DaemonConnection;
  const events: AnyCorralEvent[] = [];

  before(async () => {
    daemon = await startDaemon({ dir: makeTempDir() });
    control = await DaemonConnection.connect(daemon.socket);
    listener = await DaemonConnection.connect(daemon.socket);
    listener.onNotification(EVENT, (event) => events.push(event as AnyCorralEvent));
    await listener.call(EVENTS_SUBSCRIBE, {});
  });

  after(async () => {
    listener?.dispose();
    control?.dispose();
    await daemon?.dispose();
  });

  it('gives detected, stateChanged and metadata.changed the AgentInfo that agent.get answers next', async () => {
    // Reports from inside the pane (a relay running in it), as a hook's are.
    const path = join(daemon.dir, 'carry.sock');
    const pane = await control.call(PANE_SPAWN, { command: process.execPath, args: [REPORT_PROXY, path], cwd: daemon.dir, name: 'carry' });
    await waitFor(async () => (await control.call(PANE_READ, { target: pane.id })).text.includes('proxy ready'), { what: 'the report proxy to listen' });
    const reporter = await DaemonConnection.connect(path);
    try {
      await reporter.call(PANE_REPORT_AGENT, { target: pane.id, source: 'test', agent: 'claude', state: 'working' });
      await reporter.call(PANE_REPORT_METADATA, { target: pane.id, source: 'test', title: 'refactor auth' });
      await reporter.call(PANE_REPORT_AGENT, { target: pane.id, source: 'test', agent: 'claude', state: 'idle' });
    } finally {
      reporter.dispose();
    }
    const ofPane = () => events.filter((e) => e.pane?.id === pane.id);
    await waitFor(() => ofPane().some((e) => e.kind === 'agent.stateChanged' && e.data.to === 'done'), { what: 'the change to done' });
    const { composer: _composer, ...now } = await control.call(AGENT_GET, { target: pane.id });

    const detected = ofPane().find((e) => e.kind === 'agent.detected');
    assert.equal(detected?.kind === 'agent.detected' && detected.data.info?.agent, 'claude');
    const metadata = ofPane().find((e) => e.kind === 'metadata.changed');
    assert.ok(metadata?.kind === 'metadata.changed');
    assert.equal((metadata.data.info?.metadata as { title?: string } | null)?.title, 'refactor auth', 'the metadata feature registered its part of AgentInfo');
    const last = ofPane().filter((e) => e.kind === 'agent.stateChanged').at(-1);
    assert.ok(last?.kind === 'agent.stateChanged');
    assert.deepEqual(last.data.info, now, 'the last change carries what agent.get answers, so no client reads it back');
    for (const event of ofPane()) {
      if (event.kind !== 'agent.stateChanged') continue;
      assert.equal(event.data.info?.state, event.data.to);
      assert.equal(event.data.info?.revision, event.data.revision);
    }
  });
});
