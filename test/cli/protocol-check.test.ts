import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { makeTempDir } from '../../harness/daemon.ts';

it('says clearly when the daemon speaks another protocol version, and exits 1', async () => {
  const dir = makeTempDir();
  const socket = join(dir, 'corral.sock');
  // A stand-in daemon from the future: answers server.status with protocol 99.
  const server = createServer((conn) => {
    conn.setEncoding('utf8');
    conn.on('data', (line: string) => {
      const { id } = JSON.parse(line.split('\n')[0]!);
      const result = { version: '9.0.0', protocolVersion: 99, pid: 4242, uptimeMs: 1, paneCount: 0, socket };
      conn.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  try {
    const result = await runCli(['pane', 'list', '--socket', socket]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /speaks protocol 2 but the daemon .* speaks 99.*protocol_mismatch/);
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
