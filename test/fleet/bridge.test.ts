import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import { describe, it } from 'node:test';
import { DaemonConnection } from '../../src/client/index.ts';
import { AGENT_LIST, SERVER_STATUS } from '../../src/protocol/methods/index.ts';
import { runCli } from '../helpers/cli.ts';
import { CORRAL_BIN, makeTempDir } from '../../harness/daemon.ts';
import { useDaemon } from '../helpers/session.ts';

describe('corral server bridge', () => {
  const session = useDaemon();

  it("joins its stdin and stdout to the daemon's socket, and a client speaks through it", async () => {
    const child = spawn(process.execPath, [CORRAL_BIN, '--socket', session.daemon.socket, 'server', 'bridge'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const client = DaemonConnection.over(Duplex.from({ readable: child.stdout, writable: child.stdin }), 'the bridge');
    const [status, list] = await Promise.all([client.call(SERVER_STATUS, {}), client.call(AGENT_LIST, {})]);
    assert.equal(status.pid, session.daemon.pid);
    assert.deepEqual(list.agents, []);
    // The client goes away: stdin ends, the daemon closes its side, and the bridge exits.
    child.stdin.end();
    assert.equal(await exited, 0);
  });

  it('exits 4 naming the socket when no daemon answers there', async () => {
    const socket = join(makeTempDir(), 'none.sock');
    const result = await runCli(['--socket', socket, 'server', 'bridge']);
    assert.equal(result.code, 4);
    assert.match(result.stderr, /no daemon answers at .*none\.sock/);
  });
});
