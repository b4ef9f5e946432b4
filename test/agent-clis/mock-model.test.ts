// The mock model calls each CLI's shell and question tools with arguments their schemas accept:
// a CLI that rejects the call never shows its permission prompt, and the recording stops there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argumentsFor, CHECKED_COMMAND, SHELL_COMMAND, startMockModel } from '../../agent-clis/mock-model.ts';

/** Cline 3.0.65's shell tool, as it sends it: a list of commands and nothing else. */
const RUN_COMMANDS = {
  type: 'object',
  properties: { commands: { type: 'array', items: { type: 'string' }, description: 'Commands to run' } },
  required: ['commands'],
  additionalProperties: false,
};
const ASK_QUESTION = {
  type: 'object',
  properties: { question: { type: 'string' }, options: { type: 'array', items: { type: 'string' } } },
  required: ['question', 'options'],
  additionalProperties: false,
};
const BASH = {
  type: 'object',
  properties: { command: { type: 'string' }, description: { type: 'string' }, timeout: { type: 'number' } },
  required: ['command', 'description'],
};

/** One streamed chat completion against the mock; returns the tool call it made, if any. */
async function chatToolCall(text: string, tools: { name: string; parameters: unknown }[]): Promise<{ name: string; arguments: Record<string, unknown> } | null> {
  const model = await startMockModel({ lifetimeMs: 30_000, logFile: undefined });
  try {
    const res = await fetch(`http://127.0.0.1:${model.port}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'mock-model',
        stream: true,
        messages: [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: text }],
        tools: tools.map((t) => ({ type: 'function', function: t })),
      }),
    });
    assert.equal(res.status, 200);
    const events = (await res.text()).split('\n\n').map((e) => e.replace(/^data: /, '')).filter((e) => e && e !== '[DONE]');
    for (const event of events) {
      const call = JSON.parse(event).choices?.[0]?.delta?.tool_calls?.[0]?.function;
      if (call) return { name: call.name, arguments: JSON.parse(call.arguments) };
    }
    return null;
  } finally {
    await model.close();
  }
}

test('the shell tool run_commands gets a list of commands and no field its schema lacks', async () => {
  const call = await chatToolCall('Use the shell to create a file', [
    { name: 'read_files', parameters: { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } }, required: ['paths'] } },
    { name: 'run_commands', parameters: RUN_COMMANDS },
    { name: 'ask_question', parameters: ASK_QUESTION },
  ]);
  assert.deepEqual(call, { name: 'run_commands', arguments: { commands: [SHELL_COMMAND] } });
});

test('the question tool ask_question gets a question and two options', async () => {
  const call = await chatToolCall('Ask me a question', [
    { name: 'run_commands', parameters: RUN_COMMANDS },
    { name: 'ask_question', parameters: ASK_QUESTION },
  ]);
  assert.equal(call?.name, 'ask_question');
  assert.deepEqual(Object.keys(call!.arguments).sort(), ['options', 'question']);
  assert.deepEqual(call!.arguments.options, ['Blue', 'Green']);
});

test('a shell tool with a command field still gets the command as a string', () => {
  assert.deepEqual(argumentsFor(BASH), { command: SHELL_COMMAND, description: 'Create a marker file for the capture' });
  assert.deepEqual(argumentsFor(undefined), { command: SHELL_COMMAND });
});

/** One non-streamed Anthropic messages call: the content blocks of the answer. */
async function anthropicContent(messages: unknown[]): Promise<{ type: string; name?: string; input?: { command?: string }; text?: string }[]> {
  const model = await startMockModel({ lifetimeMs: 30_000, logFile: undefined });
  try {
    const res = await fetch(`http://127.0.0.1:${model.port}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock-model', stream: false, messages, tools: [{ name: 'Bash', input_schema: BASH }] }),
    });
    return (await res.json()).content;
  } finally {
    await model.close();
  }
}

test('"shell twice" calls Bash twice in one turn, then closes; only the Anthropic route counts results', async () => {
  const asked = { role: 'user', content: 'Use the shell twice' };
  const call = (id: string) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: {} }] });
  const result = (id: string) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] });
  const first = await anthropicContent([asked]);
  assert.deepEqual([first[0]!.type, first[0]!.input?.command], ['tool_use', CHECKED_COMMAND]);
  const second = await anthropicContent([asked, call('a'), result('a')]);
  assert.deepEqual([second[0]!.type, second[0]!.input?.command], ['tool_use', CHECKED_COMMAND]);
  const closing = await anthropicContent([asked, call('a'), result('a'), call('b'), result('b')]);
  assert.equal(closing[0]!.type, 'text');
  assert.match(closing[0]!.text!, /TOOL-FLOW-COMPLETE/);
  const chat = await chatToolCall('Use the shell twice', [{ name: 'run_commands', parameters: RUN_COMMANDS }]);
  assert.deepEqual(chat, { name: 'run_commands', arguments: { commands: [SHELL_COMMAND] } }, 'other routes keep the one-call shell turn');
});

test('the mock counts the tokens each answer says it cost, apart for turns with tools and side requests', async () => {
  const model = await startMockModel({ lifetimeMs: 30_000, logFile: undefined });
  try {
    const ask = async (tools: unknown[]): Promise<any> => {
      const res = await fetch(`http://127.0.0.1:${model.port}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'mock-model', stream: false, messages: [{ role: 'user', content: 'Use the shell to create a file' }], tools }),
      });
      return (await res.json()).usage;
    };
    const main = await ask([{ type: 'function', function: { name: 'bash', parameters: BASH } }]);
    const side = await ask([]);
    const count = model.usage();
    assert.deepEqual(count.main, {
      answers: 1,
      tokens: { input: main.prompt_tokens - main.prompt_tokens_details.cached_tokens, output: main.completion_tokens, cacheRead: main.prompt_tokens_details.cached_tokens, cacheWrite: 0 },
    });
    assert.equal(count.side.answers, 1);
    assert.equal(count.side.tokens.output, side.completion_tokens);
    assert.notEqual(main.completion_tokens, side.completion_tokens, 'each answer has figures of its own');
  } finally {
    await model.close();
  }
});
