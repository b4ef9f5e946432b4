import type { EventStream } from '../client/index.ts';

/** Runs a followed event stream until it ends, or SIGINT or SIGTERM closes it (`events --follow`, `policy log --follow`). */
export async function streamUntilSignal(stream: EventStream): Promise<void> {
  await stream.start();
  const stop = () => stream.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await stream.ended;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    stream.close();
  }
}
