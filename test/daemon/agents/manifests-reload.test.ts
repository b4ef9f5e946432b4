import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, it } from 'node:test';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

const FAKE = fileURLToPath(new URL('../../fixtures/agents/fake-claude.mjs', import.meta.url));
const BUNDLED_CLAUDE = fileURLToPath(new URL('../../../manifests/claude.toml', import.meta.url));

describe('manifest sources and reload through the daemon', () => {
  const session = useDaemon();
  const { call } = session;
  let overrides: string;

  before(() => {
    overrides = join(session.daemon.dir, 'config', 'corral', 'agent-detection');
    mkdirSync(overrides, { recursive: true });
  });

  /** The bundled claude manifest with a new version and its idle prompt-box rule renamed. */
  function override(version: string, ruleId: string): string {
    return readFileSync(BUNDLED_CLAUDE, 'utf8')
      .replace(/^version = ".*"$/m, `version = "${version}"`)
      .replace(/^id = "prompt_box"$/m, `id = "${ruleId}"`);
  }

  it('lists the bundled manifests with no errors', async () => {
    const { manifests, errors } = await call('server.manifests');
    assert.deepEqual(errors, []);
    assert.ok(manifests.length >= 21, `${manifests.length} manifests`);
    assert.equal(manifests.find((m: any) => m.id === 'claude').source, 'bundled');
  });

  it('takes a user override on reload, keeps it when a broken file follows, and explains which rules decided', async () => {
    const pane = await call('pane.spawn', { command: process.execPath, args: [FAKE], cwd: session.daemon.dir, env: { CORRAL_AGENT: 'claude' } });
    await waitFor(async () => (await call('agent.get', { target: pane.id })).source === 'screen:prompt_box', { what: 'the bundled idle rule' });

    writeFileSync(join(overrides, 'mine.toml'), override('9.0.0', 'prompt_box_local'));
    const reloaded = await call('server.reloadManifests');
    const claude = reloaded.manifests.find((m: any) => m.id === 'claude');
    assert.equal(claude.version, '9.0.0');
    assert.match(claude.source, /^user:/);
    await waitFor(async () => (await call('agent.get', { target: pane.id })).source === 'screen:prompt_box_local', { what: 'the override deciding' });

    // A broken edit of the same file: the error is listed, the working override stays in use.
    writeFileSync(join(overrides, 'mine.toml'), `${override('9.1.0', 'prompt_box_broken')}\nbogus_key = 1\n`);
    session.daemon.child.kill('SIGHUP');
    const listed = await waitFor(async () => {
      const result = await call('server.manifests');
      return result.errors.length > 0 ? result : null;
    }, { what: 'the load error after SIGHUP' });
    assert.match(listed.errors[0].message, /bogus_key/);
    assert.ok(listed.errors[0].line > 0, 'the error names its line');
    assert.equal(listed.manifests.find((m: any) => m.id === 'claude').version, '9.0.0');
    const explain = await call('agent.explain', { target: pane.id });
    assert.equal(explain.detection.manifest.version, '9.0.0');
    assert.equal((await call('agent.get', { target: pane.id })).source, 'screen:prompt_box_local');
    await call('pane.kill', { target: pane.id });
  });
});
