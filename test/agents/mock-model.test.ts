// The mock model calls each CLI's shell and question tools with arguments their schemas accept:
// a CLI that rejects the call never shows its permission prompt, and the recording stops there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argumentsFor, SHELL_COMMAND, startMockModel } from './mock-model.ts';

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
