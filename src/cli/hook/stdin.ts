/**
 * The hook's stdin, up to `limit` bytes, by `deadline` (ms since epoch). A terminal or an open pipe
 * that never ends yields what arrived so far: the agent is never held by a reader waiting for EOF.
 */
export function readStdin(deadline: number, limit = 1024 * 1024): Promise<string> {
  if (process.stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      process.stdin.removeAllListeners();
      process.stdin.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
    process.stdin.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) done();
    });
    process.stdin.on('end', done);
    process.stdin.on('error', done);
  });
}
