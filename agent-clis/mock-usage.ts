// What the mock model says each answer cost, and its own count of what it said: the live check compares
// Corral's usage of an agent (read from the agent's record) with this count (docs/usage.md).

/** Tokens of one answer, in Corral's four kinds: `input` is neither read from nor written to the cache. */
export interface MockTokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface MockUsageCount {
  /** Answers that carried usage. */
  answers: number;
  tokens: MockTokens;
}

/** One answer as the mock counted it: its number, its figures and what the request looked like. */
export interface MockAnswer {
  n: number;
  kind: 'main' | 'side';
  api: string;
  tokens: MockTokens;
  /** The head of the request's system prompt, to tell a turn from a side request in a report. */
  what: string;
}

/**
 * `main`: answers to requests that offered tools (the agent's own turns); `side`: the rest (titles,
 * next-speaker checks, summaries), which an agent may keep out of its record.
 */
export interface MockUsageReport {
  main: MockUsageCount;
  side: MockUsageCount;
  answers: MockAnswer[];
}

/** Answers whose input names them (2^(n-1)); later ones say 1 (a live run has a few dozen at most). */
export const MAX_NAMED = 30;

const empty = (): MockUsageCount => ({ answers: 0, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } });

/**
 * Hands out each answer's tokens and counts them. Answer n's input is 2^(n-1), so any sum of inputs
 * names the answers it counts (its bits), and an answer counted twice or missed shows; the other kinds
 * grow with n. Each API gets cache figures only where its usage has a field for them (`cacheWrite`
 * only on Anthropic's).
 */
export class MockUsage {
  private next = 0;
  private readonly counts: MockUsageReport = { main: empty(), side: empty(), answers: [] };

  take(kind: 'main' | 'side', api: 'anthropic' | 'chat' | 'gemini' | 'responses', what = ''): MockTokens {
    const n = ++this.next;
    const tokens: MockTokens = { input: n <= MAX_NAMED ? 2 ** (n - 1) : 1, output: 20 + n, cacheRead: 30 + n, cacheWrite: api === 'anthropic' ? 5 + n : 0 };
    const count = this.counts[kind];
    count.answers += 1;
    count.tokens.input += tokens.input;
    count.tokens.output += tokens.output;
    count.tokens.cacheRead += tokens.cacheRead;
    count.tokens.cacheWrite += tokens.cacheWrite;
    this.counts.answers.push({ n, kind, api, tokens, what: what.replace(/\s+/g, ' ').trim().slice(0, 80) });
    return tokens;
  }

  report(): MockUsageReport {
    return structuredClone(this.counts);
  }
}

/** OpenAI chat completions' usage: the prompt counts the cached tokens too. */
export function chatUsage(t: MockTokens): Record<string, unknown> {
  return { prompt_tokens: t.input + t.cacheRead, completion_tokens: t.output, total_tokens: t.input + t.cacheRead + t.output, prompt_tokens_details: { cached_tokens: t.cacheRead } };
}

/** Gemini's usageMetadata: the prompt counts the cached tokens too. */
export function geminiUsage(t: MockTokens): Record<string, unknown> {
  return { promptTokenCount: t.input + t.cacheRead, cachedContentTokenCount: t.cacheRead, candidatesTokenCount: t.output, totalTokenCount: t.input + t.cacheRead + t.output };
}

/** Anthropic's usage: input, cache read and cache write are apart. */
export function anthropicUsage(t: MockTokens): Record<string, number> {
  return { input_tokens: t.input, output_tokens: t.output, cache_creation_input_tokens: t.cacheWrite, cache_read_input_tokens: t.cacheRead };
}

/** OpenAI responses' usage: the input counts the cached tokens too. */
export function responsesUsage(t: MockTokens): Record<string, unknown> {
  return {
    input_tokens: t.input + t.cacheRead,
    input_tokens_details: { cached_tokens: t.cacheRead },
    output_tokens: t.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: t.input + t.cacheRead + t.output,
  };
}

/**
 * The answers whose figures sum exactly to `tokens` (their numbers), or null when none does: answer n's
 * input is 2^(n-1) (MockUsage above), so the input's bits name them, and the other kinds must
 * then sum to what Corral says as well.
 */
export function countedAnswers(answers: { n: number; tokens: MockTokens }[], tokens: MockTokens): number[] | null {
  const chosen = answers.filter((a) => a.n <= MAX_NAMED && Math.floor(tokens.input / 2 ** (a.n - 1)) % 2 === 1);
  const kinds = ['input', 'output', 'cacheRead', 'cacheWrite'] as const;
  const equal = kinds.every((k) => chosen.reduce((sum, a) => sum + a.tokens[k], 0) === tokens[k]);
  return equal ? chosen.map((a) => a.n) : null;
}
