import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { FAKE_AGENT } from '../helpers/agent-lab.ts';
import { startDaemon, type DaemonProcess } from '../../harness/daemon.ts';
import { freshClientPackage } from '../helpers/client-package.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = `${root}docs/examples/orchestrator.ts`;

describe('the example orchestrator, written against corral/client only', () => {
  let daemon: DaemonProcess;

  before(async () => {
    await freshClientPackage();
    daemon = await startDaemon();
  });

  after(async () => {
    await daemon?.dispose();
  });

  it('type-checks against the published declarations of corral/client', async () => {
    // The package resolves itself by name through `exports`, as an installed dependency would.
    await run(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', '--types', 'node', '--skipLibCheck', '--allowImportingTsExtensions', EXAMPLE], {
      cwd: root,
    });
  });

  it('drives three fake agents from prompt to done, answering the one that blocks', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', EXAMPLE], {
      cwd: root,
      env: {
        ...process.env,
        CORRAL_SOCKET: daemon.socket,
        AGENT_COMMAND: JSON.stringify(['/usr/bin/env', 'CORRAL_AGENT=claude', process.execPath, FAKE_AGENT]),
        TASKS_JSON: JSON.stringify({ one: 'write the parser', two: 'perm', three: 'write the tests' }),
        TASK_DIR: daemon.dir,
      },
      timeout: 120_000,
    });
    assert.match(stdout, /^two: blocked, approving$/m);
    const last = JSON.parse(stdout.trim().split('\n').at(-1)!);
    assert.deepEqual(last, { finished: { one: 'done', two: 'done', three: 'done' } });
  });
});
