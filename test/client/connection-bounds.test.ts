// What a client connection takes from its daemon, or from whatever answers in its place: the
// protocol's 1 MiB frame bound holds on the way in too, and a line that is not a message ends the
// connection with a stable code instead of throwing.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ClientError, DaemonConnection } from '../../src/client/index.ts';
import { MAX_PENDING_REQUESTS } from '../../src/client/connection.ts';
import { SERVER_STATUS } from '../../src/protocol/methods/server.ts';
import { MAX_FRAME_BYTES } from '../../src/protocol/framing.ts';
import { makeTempDir } from '../../harness/daemon.ts';

/** A socket that answers each request's line with what `answer` writes. */
async function impostor(answer: (socket: Socket) => void): Promise<{ path: string; server: Server; written: () => number }> {
  const path = join(makeTempDir('corral-impostor-'), 'sock');
  let written = 0;
  const server = createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => answer(socket));
    const write = socket.write.bind(socket);
    socket.write = ((chunk: string | Buffer, ...rest: never[]) => {
      written += Buffer.byteLength(chunk);
      return write(chunk, ...rest);
    }) as typeof socket.write;
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { path, server, written: () => written };
}

describe('a client connection', () => {
  const servers: Server[] = [];
  after(() => servers.forEach((server) => server.close()));

  it('closes with frame_too_large once a line passes 1 MiB, before the line ends', async () => {
    // 64 MiB in 1 MiB writes, never a newline; the socket stops being written to once the client has gone.
    const { path, server, written } = await impostor((socket) => {
      let left = 64;
      const more = () => {
        while (left > 0 && !socket.destroyed) {
          left -= 1;
          if (!socket.write(Buffer.alloc(1 << 20, 'x'))) return void socket.once('drain', more);
        }
      };
      more();
    });
    servers.push(server);
    const connection = await DaemonConnection.connect(path);
    const closed = new Promise<Error>((resolve) => connection.onClose(resolve));
    await assert.rejects(connection.call(SERVER_STATUS, {}), (error: unknown) => {
      assert.ok(error instanceof ClientError);
      assert.equal(error.code, 'frame_too_large');
      assert.match(error.message, new RegExp(`sent a line longer than 1 MiB \\(${MAX_FRAME_BYTES} bytes\\)`));
      return true;
    });
    assert.equal((await closed as ClientError).code, 'frame_too_large');
    assert.equal(connection.closed, true);
    assert.ok(written() < 64 << 20, `the client read on after the bound: ${written()} bytes taken`);
  });

  it('takes a reply of just under 1 MiB', async () => {
    const { path, server } = await impostor((socket) => {
      const result = { version: 'x'.repeat(MAX_FRAME_BYTES - 200), protocolVersion: 2, pid: 1 };
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}\n`);
    });
    servers.push(server);
    const connection = await DaemonConnection.connect(path);
    const status = await connection.call(SERVER_STATUS, {});
    assert.equal(status.version.length, MAX_FRAME_BYTES - 200);
    connection.dispose();
  });

  it('closes once MAX_PENDING_REQUESTS requests are left unanswered', async () => {
    const { path, server } = await impostor(() => {});
    servers.push(server);
    const connection = await DaemonConnection.connect(path);
    const calls = Array.from({ length: MAX_PENDING_REQUESTS }, () => connection.call(SERVER_STATUS, {}).catch((error: unknown) => error));
    await assert.rejects(connection.call(SERVER_STATUS, {}), (error: unknown) => error instanceof ClientError && error.code === 'timeout' && /left 10000 requests unanswered/.test(error.message));
    assert.ok((await Promise.all(calls)).every((error) => error instanceof ClientError && error.code === 'timeout'), 'the waiting calls are told why');
    assert.equal(connection.closed, true);
  });

  for (const line of ['null', '[]', '7', '"text"', '{"jsonrpc"']) {
    it(`ends with bad_reply on the line ${line}, and throws nothing`, async () => {
      const { path, server } = await impostor((socket) => socket.write(`${line}\n`));
      servers.push(server);
      const connection = await DaemonConnection.connect(path);
      await assert.rejects(connection.call(SERVER_STATUS, {}), (error: unknown) => error instanceof ClientError && error.code === 'bad_reply');
      assert.equal(connection.closed, true);
    });
  }
});
