import type { UsageTokens } from '../../protocol/usage.ts';

/** The agents' records Corral reads usage from (docs/usage.md, "Where the numbers come from"). */
export const RECORD_FORMATS = ['claude', 'codex', 'gemini', 'qwen', 'opencode', 'copilot'] as const;
export type RecordFormat = (typeof RECORD_FORMATS)[number];

/** What the AgentUsage `source` says of each format. */
export const RECORD_SOURCES: Record<RecordFormat, string> = {
  claude: 'transcript:claude',
  codex: 'rollout:codex',
  gemini: 'chat:gemini',
  qwen: 'chat:qwen',
  opencode: 'messages:opencode',
  copilot: 'events:copilot',
};

/**
 * One model call's usage from one line. A line naming a `key` that an earlier line named replaces that
 * line's figures: Claude Code writes one line per content block of a message, each with the message's usage.
 */
export interface UsageEntry {
  key: string | null;
  model: string;
  tokens: UsageTokens;
  /** The line's own time when it has one (ms since the epoch). */
  at: number | null;
}

/** Reads one record's lines in order; stateful where the format is (Codex's model and running totals). */
export interface RecordLineReader {
  /** Bytes a line must hold to be worth parsing: every other line is passed over unparsed. */
  readonly needles: readonly Buffer[];
  read(line: Record<string, unknown>): UsageEntry | null;
}

const MAX_MODEL = 128;

export function lineReader(format: RecordFormat): RecordLineReader {
  switch (format) {
    case 'claude':
      return { needles: [Buffer.from('"usage"')], read: claudeLine };
    case 'gemini':
      return { needles: [Buffer.from('"tokens"')], read: geminiLine };
    case 'qwen':
      return { needles: [Buffer.from('"usageMetadata"')], read: qwenLine };
    case 'opencode':
      return { needles: [Buffer.from('"tokens"')], read: opencodeLine };
    case 'copilot':
      return { needles: [Buffer.from('session.usage_record')], read: copilotLine };
    case 'codex':
      return new CodexLines();
  }
}

/** Claude Code's transcript: an `assistant` line's `message.usage` and `message.model`, keyed by the message id. */
function claudeLine(line: Record<string, unknown>): UsageEntry | null {
  if (line['type'] !== 'assistant') return null;
  const message = object(line['message']);
  const usage = object(message?.['usage']);
  const model = name(message?.['model']);
  if (usage === null || model === null || model === '<synthetic>') return null;
  const id = typeof message!['id'] === 'string' ? message!['id'] : null;
  return {
    key: id === null ? null : `${id}:${typeof line['requestId'] === 'string' ? line['requestId'] : ''}`,
    model,
    tokens: { input: count(usage['input_tokens']), output: count(usage['output_tokens']), cacheRead: count(usage['cache_read_input_tokens']), cacheWrite: count(usage['cache_creation_input_tokens']) },
    at: time(line['timestamp']),
  };
}

/**
 * Gemini CLI's chat record: a `gemini` message's `tokens` (`input` counts the cached tokens too, as the
 * API's promptTokenCount does; `thoughts` are output), keyed by the message id, which a later line may update.
 */
function geminiLine(line: Record<string, unknown>): UsageEntry | null {
  if (line['type'] !== 'gemini') return null;
  const tokens = object(line['tokens']);
  const model = name(line['model']);
  if (tokens === null || model === null) return null;
  const cached = count(tokens['cached']);
  return {
    key: typeof line['id'] === 'string' ? line['id'] : null,
    model,
    tokens: { input: Math.max(0, count(tokens['input']) - cached), output: count(tokens['output']) + count(tokens['thoughts']), cacheRead: cached, cacheWrite: 0 },
    at: time(line['timestamp']),
  };
}

/** Qwen Code's chat record: an `assistant` record's `usageMetadata` (the Gemini API's counts) and `model`, keyed by its uuid. */
function qwenLine(line: Record<string, unknown>): UsageEntry | null {
  const usage = object(line['usageMetadata']);
  const model = name(line['model']);
  if (line['type'] !== 'assistant' || usage === null || model === null) return null;
  const cached = count(usage['cachedContentTokenCount']);
  return {
    key: typeof line['uuid'] === 'string' ? line['uuid'] : null,
    model,
    tokens: { input: Math.max(0, count(usage['promptTokenCount']) - cached), output: count(usage['candidatesTokenCount']) + count(usage['thoughtsTokenCount']), cacheRead: cached, cacheWrite: 0 },
    at: time(line['timestamp']),
  };
}

/**
 * OpenCode's assistant messages as Corral's plugin keeps them (src/integration/plugin-dir.ts): each
 * `message.updated` of OpenCode's bus with its `tokens` (`input` without the cache, as OpenCode's store
 * holds it; `reasoning` is output) and `modelID`, keyed by the message id, whose later line replaces it.
 */
function opencodeLine(line: Record<string, unknown>): UsageEntry | null {
  if (line['type'] !== 'assistant') return null;
  const tokens = object(line['tokens']);
  const model = name(line['modelID']);
  if (tokens === null || model === null) return null;
  const cache = object(tokens['cache']);
  return {
    key: typeof line['id'] === 'string' ? line['id'] : null,
    model,
    tokens: { input: count(tokens['input']), output: count(tokens['output']) + count(tokens['reasoning']), cacheRead: count(cache?.['read']), cacheWrite: count(cache?.['write']) },
    at: typeof line['time'] === 'number' && Number.isFinite(line['time']) ? line['time'] : null,
  };
}

/**
 * Copilot CLI's session events (`session-state/<session>/events.jsonl`): one `session.usage_record` per
 * model call, keyed by the event's id. Its `inputTokens` hold the cache's tokens too, read and written
 * (checked live with 1.0.102 on both wires, docs/usage.md), so input is what is left of them.
 */
function copilotLine(line: Record<string, unknown>): UsageEntry | null {
  if (line['type'] !== 'session.usage_record') return null;
  const usage = object(object(line['data'])?.['usage']);
  const model = name(usage?.['model']);
  if (usage === null || model === null) return null;
  const cacheRead = count(usage['cacheReadTokens']);
  const cacheWrite = count(usage['cacheWriteTokens']);
  return {
    key: typeof line['id'] === 'string' ? line['id'] : null,
    model,
    tokens: { input: Math.max(0, count(usage['inputTokens']) - cacheRead - cacheWrite), output: count(usage['outputTokens']), cacheRead, cacheWrite },
    at: time(line['timestamp']),
  };
}

/**
 * Codex's rollout file: `turn_context` lines name the model, `token_count` events carry the session's
 * running total (`info.total_token_usage`, whose `input_tokens` include the cached ones). Each entry is
 * the growth of that total since the last, so an event repeated with the same total adds nothing.
 */
class CodexLines implements RecordLineReader {
  readonly needles = [Buffer.from('token_count'), Buffer.from('turn_context')];
  private model = 'unknown';
  private last: UsageTokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

  read(line: Record<string, unknown>): UsageEntry | null {
    const payload = object(line['payload']);
    if (payload === null) return null;
    if (line['type'] === 'turn_context') {
      this.model = name(payload['model']) ?? this.model;
      return null;
    }
    if (line['type'] !== 'event_msg' || payload['type'] !== 'token_count') return null;
    const total = object(object(payload['info'])?.['total_token_usage']);
    if (total === null) return null;
    const cached = count(total['cached_input_tokens']);
    const now: UsageTokens = { input: Math.max(0, count(total['input_tokens']) - cached), output: count(total['output_tokens']), cacheRead: cached, cacheWrite: 0 };
    const grown: UsageTokens = {
      input: Math.max(0, now.input - this.last.input),
      output: Math.max(0, now.output - this.last.output),
      cacheRead: Math.max(0, now.cacheRead - this.last.cacheRead),
      cacheWrite: 0,
    };
    this.last = now;
    if (grown.input + grown.output + grown.cacheRead === 0) return null;
    return { key: null, model: this.model, tokens: grown, at: time(line['timestamp']) };
  }
}

function object(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** A token count: a record's wrong value counts as none, never as a negative or an unbounded figure. */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value < 2 ** 40 ? value : 0;
}

/** A model name as printable text of bounded length (a record is untrusted input). */
function name(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').slice(0, MAX_MODEL) || null;
}

function time(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}
