// Mock model server for recording real agent CLIs offline. Serves on 127.0.0.1 only, on a random
// port, and exits by itself after a bounded lifetime. Run standalone: it prints `PORT <n>` on stdout.
//
// Endpoints: OpenAI chat completions, Gemini generateContent, Anthropic messages (Claude Code) and
// OpenAI responses (Codex), all streamed as server-sent events.
// Script (chosen from the last user turn):
//   - text containing "shell": call the CLI's shell tool with a command that needs permission;
//   - a tool result as the last turn: a short, slowly streamed closing answer;
//   - text containing "restart": a held answer that streams filler until `release()` (or SIGUSR1 when
//     standalone), so a daemon restart lands in the middle of the turn whatever the machine's load;
//   - text containing "long": a long answer (LONG_ANSWER_LINES lines, one every LONG_LINE_DELAY_MS), so
//     the transcript scrolls the screen several times while it streams;
//   - text containing "twice" and "shell": two shell calls in one turn, the second after the first's result;
//   - anything else: a slow text answer (several seconds) so a working screen can be recorded.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { appendFileSync } from 'node:fs';
import { anthropicUsage, chatUsage, geminiUsage, MockUsage, responsesUsage, type MockUsageReport } from './mock-usage.ts';

export const SLOW_ANSWER_END = 'ANSWER-COMPLETE';
export const TOOL_ANSWER_END = 'TOOL-FLOW-COMPLETE';
export const SHELL_COMMAND = 'touch capture-proof.txt';
/**
 * The command of the two-call turn: a network command, which Claude Code's auto mode sends to its
 * safety check (a file made in the project it runs by itself); offline the check is out of reach,
 * so the footer-key dialog and then a permission prompt come up. In the netns it fails at once.
 */
export const CHECKED_COMMAND = 'curl -s http://127.0.0.1:9/capture-check';
export const QUESTION_TEXT = 'Which colour should the capture use?';
export const QUESTION_ANSWER_END = 'QUESTION-FLOW-COMPLETE';
export const HELD_ANSWER_END = 'HELD-TURN-COMPLETE';
export const LONG_ANSWER_END = 'LONG-ANSWER-COMPLETE';
/** About 200 lines over 14 s: at 70x20 to 250x70 the screen scrolls several times. */
const LONG_ANSWER_LINES = 200;
const LONG_LINE_DELAY_MS = 70;
const LONG_WORDS = [
  ...Array.from({ length: LONG_ANSWER_LINES - 1 }, (_, i) => `Line ${i + 1} of the long streamed answer.\n`),
  `${LONG_ANSWER_END}.`,
];

const SLOW_WORDS = (
  'This is a slow scripted answer from the local mock model so that the working screen ' +
  'can be recorded while tokens arrive one by one over several seconds ' + SLOW_ANSWER_END + '.'
).split(' ');
const TOOL_WORDS = `The command ran and the file exists now. ${TOOL_ANSWER_END}.`.split(' ');
const QUESTION_WORDS = `Thanks, noted your choice. ${QUESTION_ANSWER_END}.`.split(' ');
const HELD_WORDS = 'still answering while the daemon restarts'.split(' ');
const SLOW_WORD_DELAY_MS = 220;
const HELD_WORD_DELAY_MS = 400;
/** A held answer ends by itself after this long, so a driver that never releases it cannot hang a CLI. */
const HELD_TURN_MAX_MS = 300_000;
const TOOL_WORD_DELAY_MS = 250;
// Silence before the first token, so the "waiting for the model" screen can be recorded too.
const FIRST_TOKEN_DELAY_MS = 1500;

type Turn =
  | { kind: 'text'; words: string[]; delayMs: number; held?: Hold }
  | { kind: 'call'; tool: ToolShape; args: Record<string, unknown> };

interface ToolShape {
  name: string;
  schema: Record<string, unknown> | undefined;
}

/** Whether a held answer may finish: set by `release()`. */
interface Hold {
  released: boolean;
  /** The word that ends this held answer: HELD_ANSWER_END and the answer's number. */
  end: string;
}

interface Options {
  lifetimeMs: number;
  logFile: string | undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The words of a text turn, each after its delay (the first after the first-token silence). A held
 * turn repeats its filler until released, then ends with its own end word.
 */
async function* paced(turn: { words: string[]; delayMs: number; held?: Hold }): AsyncGenerator<{ text: string; last: boolean }> {
  if (turn.delayMs) await sleep(FIRST_TOKEN_DELAY_MS);
  let index = 0;
  const next = (word: string, last: boolean) => ({ text: (index++ === 0 ? '' : ' ') + word, last });
  if (turn.held) {
    const until = Date.now() + HELD_TURN_MAX_MS;
    // Every word of the filler differs (its count goes with it): Gemini CLI takes a text that repeats
    // itself for a model stuck in a loop and stops the turn with a dialog (live check of 0.61.0).
    let count = 0;
    while (!turn.held.released && Date.now() < until) {
      for (const word of HELD_WORDS) {
        await sleep(turn.delayMs);
        yield next(`${word}-${++count}`, false);
      }
    }
  }
  for (const [i, word] of turn.words.entries()) {
    if (turn.delayMs) await sleep(turn.delayMs);
    yield next(word, i === turn.words.length - 1);
  }
}

async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}

/**
 * What the person typed in a user message: reminders the CLI adds to the same message (Qwen Code
 * 0.24 sends `<system-reminder>` parts that mention the shell) are left out.
 */
function typedText(content: unknown): string {
  const strip = (text: string): string => text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, ' ');
  if (Array.isArray(content)) {
    const parts = content.map((p: any) => strip(typeof p === 'string' ? p : p?.text ?? '')).filter((t) => t.trim());
    return parts[parts.length - 1] ?? '';
  }
  return strip(textOf(content));
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p: any) => (typeof p === 'string' ? p : p?.text ?? '')).join(' ');
  }
  return '';
}

const SHELL_TOOL_NAMES = ['run_shell_command', 'bash', 'shell', 'Bash', 'exec_command', 'powershell', 'run_commands'];
const QUESTION_TOOL_NAMES = ['question', 'ask_user', 'ask_user_question', 'AskUserQuestion', 'ask_question'];

/** A value that satisfies a JSON schema, with readable text for a question form. */
function exampleFor(schema: any, key = ''): unknown {
  if (!schema || typeof schema !== 'object') return 'Blue';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.anyOf?.[0] ?? schema.oneOf?.[0]) return exampleFor(schema.anyOf?.[0] ?? schema.oneOf?.[0], key);
  const type = String(Array.isArray(schema.type) ? schema.type[0] : schema.type ?? (schema.properties ? 'object' : 'string')).toLowerCase();
  if (type === 'object') {
    const out: Record<string, unknown> = {};
    const props: Record<string, any> = schema.properties ?? {};
    const wanted = new Set<string>([...(schema.required ?? []), ...['question', 'questions', 'options', 'header', 'label'].filter((k) => k in props)]);
    for (const name of wanted) out[name] = exampleFor(props[name], name);
    return out;
  }
  if (type === 'array') {
    const count = Math.max(schema.minItems ?? 1, /option|choice/i.test(key) ? 2 : 1);
    return Array.from({ length: count }, (_, i) => (/option|choice/i.test(key) && schema.items?.type === 'string' ? ['Blue', 'Green'][i % 2] : exampleItem(schema.items, key, i)));
  }
  if (type === 'boolean') return false;
  if (type === 'number' || type === 'integer') return schema.minimum ?? 1;
  if (/question|prompt|message/i.test(key)) return QUESTION_TEXT;
  if (/header|title/i.test(key)) return 'Colour';
  if (/description/i.test(key)) return 'A colour for the capture';
  return 'Blue';
}

function exampleItem(items: any, key: string, index: number): unknown {
  const value = exampleFor(items, key);
  if (/option|choice/i.test(key) && value && typeof value === 'object' && 'label' in value) {
    return { ...(value as object), label: ['Blue', 'Green'][index % 2] };
  }
  return value;
}

function pickShellTool(tools: ToolShape[]): ToolShape | undefined {
  for (const name of SHELL_TOOL_NAMES) {
    const hit = tools.find((t) => t.name === name);
    if (hit) return hit;
  }
  return tools.find((t) => /shell|bash/i.test(t.name));
}

/**
 * Fills a shell tool's required arguments from its JSON schema, with the command we want run. The
 * command goes where the schema takes it: a `command` string, or a `commands` list (Cline's
 * `run_commands`, whose schema allows no other field); a schema that names its fields and has no
 * `command` gets none.
 */
export function argumentsFor(schema: Record<string, any> | undefined, command = SHELL_COMMAND): Record<string, unknown> {
  const props: Record<string, any> = schema?.properties ?? {};
  const required: string[] = schema?.required ?? [];
  const args: Record<string, unknown> = {};
  if (isArrayOfStrings(props.commands)) args.commands = [command];
  else if ('command' in props || Object.keys(props).length === 0) args.command = command;
  for (const key of required) {
    if (key in args) continue;
    const prop = props[key] ?? {};
    const type = String(prop.type ?? 'string').toLowerCase();
    if (Array.isArray(prop.enum) && prop.enum.length > 0) args[key] = prop.enum[0];
    else if (type === 'boolean') args[key] = false;
    else if (type === 'number' || type === 'integer') args[key] = prop.minimum ?? 30;
    else if (type === 'array') args[key] = [];
    else if (type === 'object') args[key] = {};
    else args[key] = 'Create a marker file for the capture';
  }
  return args;
}

/** A schema of a list of strings (directly, or as the first alternative of a union). */
function isArrayOfStrings(prop: any): boolean {
  if (!prop || typeof prop !== 'object') return false;
  const alternatives: any[] = [prop, ...(prop.anyOf ?? []), ...(prop.oneOf ?? [])];
  return alternatives.some((p) => String(Array.isArray(p?.type) ? p.type[0] : p?.type) === 'array' && (p.items === undefined || p.items?.type === 'string' || (p.items?.anyOf ?? p.items?.oneOf ?? []).some((i: any) => i?.type === 'string')));
}

/**
 * lastToolName: the tool whose result is the last turn, or null when the last turn is the user's.
 * toolResults: how many tool results the turn has had since the user's text; null where not counted
 * (only the Anthropic route counts them, so only Claude Code gets the two-call turn).
 */
function decideTurn(lastUserText: string, lastToolName: string | null, tools: ToolShape[], hold: () => Hold, toolResults: number | null = null): Turn {
  const shell = pickShellTool(tools);
  const twice = shell && toolResults !== null && /twice/i.test(lastUserText) && /shell/i.test(lastUserText);
  if (twice && toolResults! < 2) return { kind: 'call', tool: shell, args: argumentsFor(shell.schema as any, CHECKED_COMMAND) };
  if (lastToolName !== null) {
    const words = QUESTION_TOOL_NAMES.includes(lastToolName) ? QUESTION_WORDS : TOOL_WORDS;
    return { kind: 'text', words, delayMs: TOOL_WORD_DELAY_MS };
  }
  if (/shell/i.test(lastUserText) && shell) return { kind: 'call', tool: shell, args: argumentsFor(shell.schema as any) };
  const question = tools.find((t) => QUESTION_TOOL_NAMES.includes(t.name));
  if (/question/i.test(lastUserText) && question) return { kind: 'call', tool: question, args: exampleFor(question.schema) as Record<string, unknown> };
  if (/restart/i.test(lastUserText)) {
    const held = hold();
    return { kind: 'text', words: [`${held.end}.`], delayMs: HELD_WORD_DELAY_MS, held };
  }
  if (/long/i.test(lastUserText)) return { kind: 'text', words: LONG_WORDS, delayMs: LONG_LINE_DELAY_MS };
  return { kind: 'text', words: SLOW_WORDS, delayMs: SLOW_WORD_DELAY_MS };
}

function sseHeaders(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

// ---------- OpenAI chat completions (Qwen Code, Copilot, OpenCode) ----------

async function openAiChat(body: any, res: ServerResponse, hold: () => Hold, count: MockUsage): Promise<void> {
  const messages: any[] = body.messages ?? [];
  const last = messages[messages.length - 1] ?? {};
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const tools: ToolShape[] = (body.tools ?? []).map((t: any) => ({
    name: t.function?.name ?? t.name,
    schema: t.function?.parameters,
  }));
  const system = textOf(messages.find((m) => m.role === 'system')?.content);
  // Background helpers (Qwen's memory extraction subagent, title generators) answer at once.
  const sideRequest = tools.length === 0 || /memory extraction|subagent|title generator/i.test(system.slice(0, 300));
  const lastToolName = last.role === 'tool' ? toolNameOfResult(messages, last.tool_call_id) : null;
  const turn: Turn = sideRequest ? { kind: 'text', words: ['Mock', 'capture', 'session'], delayMs: 0 } : decideTurn(typedText(lastUser?.content), lastToolName, tools, hold);
  const id = `chatcmpl-${Date.now()}`;
  const model = body.model ?? 'mock-model';
  const created = Math.floor(Date.now() / 1000);
  const usage = chatUsage(count.take(sideRequest ? 'side' : 'main', 'chat', `${system.slice(0, 30)} | ${last.role}: ${textOf(last.content).slice(0, 40)}`));
  const chunk = (delta: unknown, finish: string | null = null): string =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  if (!body.stream) {
    const message =
      turn.kind === 'call'
        ? { role: 'assistant', content: null, tool_calls: [toolCall(turn)] }
        : { role: 'assistant', content: turn.words.join(' ') };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: turn.kind === 'call' ? 'tool_calls' : 'stop' }], usage }));
    return;
  }
  sseHeaders(res);
  res.write(chunk({ role: 'assistant', content: '' }));
  if (turn.kind === 'call') {
    const call = toolCall(turn);
    await sleep(400);
    res.write(chunk({ tool_calls: [{ index: 0, ...call }] }));
    res.write(chunk({}, 'tool_calls'));
  } else {
    for await (const word of paced(turn)) res.write(chunk({ content: word.text }));
    res.write(chunk({}, 'stop'));
  }
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}

function toolCall(turn: { tool: ToolShape; args: Record<string, unknown> }): { id: string; type: 'function'; function: { name: string; arguments: string } } {
  return { id: `call_${Date.now()}`, type: 'function', function: { name: turn.tool.name, arguments: JSON.stringify(turn.args) } };
}

function toolNameOfResult(messages: any[], callId: string | undefined): string {
  for (const m of messages) {
    for (const call of m.tool_calls ?? []) if (call.id === callId) return call.function?.name ?? '';
  }
  return '';
}

// ---------- Gemini generateContent / streamGenerateContent ----------

async function gemini(body: any, stream: boolean, res: ServerResponse, hold: () => Hold, count: MockUsage): Promise<void> {
  const contents: any[] = body.contents ?? [];
  const last = contents[contents.length - 1] ?? {};
  const lastParts: any[] = last.parts ?? [];
  const lastToolName: string | null = lastParts.find((p) => p.functionResponse)?.functionResponse?.name ?? null;
  const lastUser = [...contents].reverse().find((c) => c.role === 'user' && (c.parts ?? []).some((p: any) => typeof p.text === 'string'));
  const userText = (lastUser?.parts ?? []).map((p: any) => p.text ?? '').join(' ');
  const tools: ToolShape[] = (body.tools ?? []).flatMap((t: any) =>
    (t.functionDeclarations ?? []).map((f: any) => ({ name: f.name, schema: f.parametersJsonSchema ?? f.parameters })),
  );
  // Every chunk of a streamed answer repeats the answer's usage, as one answer's.
  const usage = geminiUsage(count.take(stream && tools.length > 0 ? 'main' : 'side', 'gemini', `${stream ? 'stream' : 'generateContent'}: ${textOf(body.systemInstruction?.parts)}`));
  const candidate = (parts: unknown[], finish?: string): unknown => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: finish } : {}) }],
    usageMetadata: usage,
    modelVersion: 'mock-model',
  });

  if (!stream) {
    // Side calls (next-speaker check, routing, summaries) expect short JSON-ish answers.
    const wantsJson = body.generationConfig?.responseMimeType === 'application/json';
    const text = wantsJson ? JSON.stringify({ reasoning: 'The model finished its turn.', next_speaker: 'user', model_choice: 'flash', complexity_reasoning: 'simple', complexity_score: 1 }) : 'Mock capture session';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(candidate([{ text }], 'STOP')));
    return;
  }
  const turn = decideTurn(userText, lastToolName, tools, hold);
  sseHeaders(res);
  const send = (payload: unknown): boolean => res.write(`data: ${JSON.stringify(payload)}\n\n`);
  if (turn.kind === 'call') {
    await sleep(400);
    send(candidate([{ functionCall: { name: turn.tool.name, args: turn.args } }], 'STOP'));
  } else {
    for await (const word of paced(turn)) send(candidate([{ text: word.text }], word.last ? 'STOP' : undefined));
  }
  res.end();
}

// ---------- Anthropic messages (Claude Code) ----------

const SYSTEM_REMINDER = /^\s*<system-reminder>[\s\S]*?<\/system-reminder>\s*/;

/** The text a user typed in one message, without the system reminders Claude Code adds around it. */
function anthropicUserText(content: unknown): string {
  if (typeof content === 'string') return content.replace(SYSTEM_REMINDER, '').trim();
  if (!Array.isArray(content)) return '';
  return content
    .filter((b: any) => b?.type === 'text' && typeof b.text === 'string')
    .map((b: any) => String(b.text).replace(SYSTEM_REMINDER, '').trim())
    .filter((t: string) => t && !t.startsWith('<system-reminder>'))
    .join(' ');
}

/**
 * The last user turn: the newest user message holding a tool result or typed text. Messages made only
 * of system reminders (Claude Code may send one last) are skipped.
 */
function anthropicLastTurn(messages: any[]): { userText: string; toolName: string | null; toolResults: number } {
  let toolName: string | null = null;
  let toolResults = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    const result = Array.isArray(m.content) ? m.content.find((b: any) => b?.type === 'tool_result') : undefined;
    if (result) {
      toolName ??= anthropicToolName(messages, result.tool_use_id);
      toolResults++;
      continue;
    }
    const text = anthropicUserText(m.content);
    // The typed text that started the turn: a tool result's next step depends on it (two shell calls).
    if (text) return { userText: text, toolName, toolResults };
  }
  return { userText: '', toolName, toolResults };
}

function anthropicToolName(messages: any[], id: string | undefined): string {
  for (const m of messages) {
    if (!Array.isArray(m?.content)) continue;
    for (const b of m.content) if (b?.type === 'tool_use' && b.id === id) return String(b.name ?? '');
  }
  return '';
}

async function anthropicMessages(body: any, res: ServerResponse, hold: () => Hold, count: MockUsage): Promise<void> {
  const messages: any[] = body.messages ?? [];
  const tools: ToolShape[] = (body.tools ?? []).filter((t: any) => t?.name).map((t: any) => ({ name: t.name, schema: t.input_schema }));
  const { userText, toolName, toolResults } = anthropicLastTurn(messages);
  // Side requests (titles, topic checks, quota probes) come without tools: answer at once.
  const turn: Turn = tools.length === 0 ? { kind: 'text', words: ['Mock', 'capture', 'session'], delayMs: 0 } : decideTurn(userText, toolName, tools, hold, toolResults);
  const id = `msg_mock_${Date.now()}`;
  const model = body.model ?? 'mock-model';
  const usage = anthropicUsage(count.take(tools.length === 0 ? 'side' : 'main', 'anthropic', textOf(body.system)));
  const toolUse = turn.kind === 'call' ? { type: 'tool_use', id: `toolu_mock_${Date.now()}`, name: turn.tool.name, input: turn.args } : null;
  if (!body.stream) {
    const content = toolUse ? [toolUse] : [{ type: 'text', text: (turn as { words: string[] }).words.join(' ') }];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason: toolUse ? 'tool_use' : 'end_turn', stop_sequence: null, usage }));
    return;
  }
  sseHeaders(res);
  const send = (event: string, data: unknown): boolean => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...(data as object) })}\n\n`);
  send('message_start', { message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
  if (toolUse) {
    await sleep(400);
    send('content_block_start', { index: 0, content_block: { ...toolUse, input: {} } });
    send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(toolUse.input) } });
    send('content_block_stop', { index: 0 });
  } else if (turn.kind === 'text') {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    for await (const word of paced(turn)) send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: word.text } });
    send('content_block_stop', { index: 0 });
  }
  send('message_delta', { delta: { stop_reason: toolUse ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  send('message_stop', {});
  res.end();
}

// ---------- OpenAI responses (Codex) ----------

/** Codex's user-role context blocks (environment, AGENTS.md) are not what the user typed. */
const CODEX_CONTEXT = /^\s*<(?:environment_context|user_instructions|permissions instructions|user_shell_command)|^\s*# AGENTS\.md/;

function responsesLastTurn(input: any[]): { userText: string; toolName: string | null } {
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i];
    if (item?.type === 'function_call_output' || item?.type === 'custom_tool_call_output') {
      const call = input.find((x: any) => (x?.type === 'function_call' || x?.type === 'custom_tool_call') && x.call_id === item.call_id);
      return { userText: '', toolName: String(call?.name ?? '') };
    }
    if (item?.role === 'assistant') return { userText: '', toolName: null };
    if (item?.role !== 'user') continue;
    const text = textOf(item.content);
    if (text && !CODEX_CONTEXT.test(text)) return { userText: text, toolName: null };
  }
  return { userText: '', toolName: null };
}

/**
 * Arguments for Codex's `exec_command`: the approval prompt appears only when the call asks to leave
 * the sandbox (`sandbox_permissions: "require_escalated"`) and says why.
 */
function codexExecArguments(schema: Record<string, any> | undefined): Record<string, unknown> {
  const props: Record<string, any> = schema?.properties ?? {};
  const args = argumentsFor(schema);
  delete args.command;
  const commandKey = 'cmd' in props ? 'cmd' : 'command';
  args[commandKey] = String(props[commandKey]?.type ?? 'string') === 'array' ? ['bash', '-lc', SHELL_COMMAND] : SHELL_COMMAND;
  args.sandbox_permissions = 'require_escalated';
  args.justification = 'Create the marker file the capture checks for';
  return args;
}

async function openAiResponses(body: any, res: ServerResponse, hold: () => Hold, count: MockUsage): Promise<void> {
  const input: any[] = Array.isArray(body.input) ? body.input : [{ role: 'user', content: textOf(body.input) }];
  const tools: ToolShape[] = (body.tools ?? []).filter((t: any) => t?.name).map((t: any) => ({ name: t.name, schema: t.parameters }));
  const { userText, toolName } = responsesLastTurn(input);
  let turn: Turn = tools.length === 0 ? { kind: 'text', words: ['Mock', 'capture', 'session'], delayMs: 0 } : decideTurn(userText, toolName, tools, hold);
  const exec = tools.find((t) => t.name === 'exec_command');
  if (turn.kind === 'call' && exec && !QUESTION_TOOL_NAMES.includes(turn.tool.name)) turn = { kind: 'call', tool: exec, args: codexExecArguments(exec.schema as any) };
  const id = `resp_mock_${Date.now()}`;
  const model = body.model ?? 'mock-model';
  const usage = responsesUsage(count.take(tools.length === 0 ? 'side' : 'main', 'responses', textOf(body.instructions)));
  const response = (status: string, output: unknown[]): unknown => ({ id, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model, output, ...(status === 'completed' ? { usage } : {}) });
  let item: any;
  sseHeaders(res);
  const send = (event: string, data: unknown): boolean => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...(data as object) })}\n\n`);
  send('response.created', { response: response('in_progress', []) });
  if (turn.kind === 'call') {
    await sleep(400);
    item = { type: 'function_call', id: `fc_mock_${Date.now()}`, call_id: `call_mock_${Date.now()}`, name: turn.tool.name, arguments: JSON.stringify(turn.args), status: 'completed' };
    send('response.output_item.added', { output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } });
    send('response.output_item.done', { output_index: 0, item });
  } else {
    const itemId = `msg_mock_${Date.now()}`;
    send('response.output_item.added', { output_index: 0, item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] } });
    send('response.content_part.added', { item_id: itemId, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    let text = '';
    for await (const word of paced(turn)) {
      text += word.text;
      send('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta: word.text });
    }
    send('response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text });
    item = { type: 'message', id: itemId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
    send('response.output_item.done', { output_index: 0, item });
  }
  send('response.completed', { response: response('completed', [item]) });
  res.end();
}

// ---------- server ----------

export interface MockModel {
  port: number;
  /** Lets every held answer so far (a turn asked to last through a restart) finish; returns their end words. */
  release(): string[];
  /** The mock's own count of the tokens its answers said they cost (agent-clis/mock-usage.ts). */
  usage(): MockUsageReport;
  close(): Promise<void>;
}

export function startMockModel(options: Options): Promise<MockModel> {
  const log = (line: string): void => {
    if (options.logFile) appendFileSync(options.logFile, `${new Date().toISOString()} ${line}\n`);
  };
  const pending = new Set<Hold>();
  let holds = 0;
  const count = new MockUsage();
  const hold = (): Hold => {
    const held = { released: false, end: `${HELD_ANSWER_END}-${++holds}` };
    pending.add(held);
    return held;
  };
  const server = createServer((req, res) => {
    void (async () => {
      const body = req.method === 'POST' ? await readJson(req) : {};
      const url = req.url ?? '/';
      const toolNames = (body.tools ?? []).flatMap((t: any) => t.function?.name ?? t.name ?? (t.functionDeclarations ?? []).map((f: any) => f.name));
      log(`${req.method} ${url} stream=${body.stream} tools=${JSON.stringify(toolNames)} ${JSON.stringify(body).slice(0, 1500)}`);
      const question = JSON.stringify(body.tools ?? []).match(/"(question|ask_user|ask_user_question|AskUserQuestion)"/);
      if (question && options.logFile) log(`QUESTION TOOL ${JSON.stringify(body.tools).slice(0, 20000)}`);
      try {
        if (url.includes(':streamGenerateContent')) return await gemini(body, true, res, hold, count);
        if (url.includes(':generateContent')) return await gemini(body, false, res, hold, count);
        if (url.includes(':countTokens')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ totalTokens: 10 }));
        }
        if (url.includes(':embedContent') || url.includes(':batchEmbedContents')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ embedding: { values: [0.1, 0.2] }, embeddings: [{ values: [0.1, 0.2] }] }));
        }
        if (url.endsWith('/chat/completions')) return await openAiChat(body, res, hold, count);
        const path = url.split('?')[0]!;
        if (path.endsWith('/messages/count_tokens')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ input_tokens: 10 }));
        }
        if (path.endsWith('/v1/messages')) return await anthropicMessages(body, res, hold, count);
        if (path.endsWith('/responses')) return await openAiResponses(body, res, hold, count);
        if (url.endsWith('/models') || url.includes('/models?')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ object: 'list', data: [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'mock', capabilities: { supports: { tool_calls: true, streaming: true } } }] }));
        }
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `mock model: no route for ${req.method} ${url}` } }));
      } catch (error) {
        log(`ERROR ${String(error)}`);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      }
    })();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const lifetime = setTimeout(() => server.close(), options.lifetimeMs);
      lifetime.unref();
      resolve({
        port,
        release: () => {
          const ends = [...pending].map((held) => held.end);
          for (const held of pending) held.released = true;
          log(`RELEASE ${ends.join(' ')}`);
          pending.clear();
          return ends;
        },
        usage: () => count.report(),
        close: () =>
          new Promise<void>((done) => {
            clearTimeout(lifetime);
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

// Standalone: `node --import tsx mock-model.ts [lifetimeSeconds] [logFile]`.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '\0')) {
  const lifetimeMs = Number(process.argv[2] ?? 300) * 1000;
  const model = await startMockModel({ lifetimeMs, logFile: process.argv[3] });
  process.stdout.write(`PORT ${model.port}\n`);
  setTimeout(() => process.exit(0), lifetimeMs).unref();
  process.on('SIGTERM', () => void model.close().then(() => process.exit(0)));
  process.on('SIGUSR1', () => model.release());
}
