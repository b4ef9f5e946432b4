/** Polls `check` until it returns a truthy value or the time runs out. */
export async function waitFor<T>(check: () => T | Promise<T>, options: { timeoutMs?: number; what?: string } = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'a condition'}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads `read` until its text matches `pattern`, and returns that text. On time out the error shows
 * the text as it was last read, not as it was when the wait began.
 */
export async function waitForText(read: () => string, pattern: RegExp, options: { timeoutMs?: number; what: string }): Promise<string> {
  let last = '';
  try {
    return await waitFor(() => (pattern.test((last = read())) ? last : ''), options);
  } catch (error) {
    throw new Error(`${(error as Error).message}; screen:\n${last}`);
  }
}
