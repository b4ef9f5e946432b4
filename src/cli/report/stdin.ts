/**
 * The hook's stdin, up to `limit` bytes. It ends at EOF, or as soon as what arrived is one whole JSON
 * object (an agent may keep the pipe open), or at `deadline` (ms since epoch) with what arrived so far:
 * a terminal or a pipe that never brings a payload does not hold the agent for long.
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
      if (size >= limit || isWholeObject(chunk, chunks)) done();
    });
    process.stdin.on('end', done);
    process.stdin.on('error', done);
  });
}

/** Whether the bytes so far are one complete JSON object (checked only when a chunk ends in `}`). */
function isWholeObject(last: Buffer, chunks: Buffer[]): boolean {
  if (!/}\s*$/.test(last.subarray(-16).toString('latin1'))) return false;
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}
