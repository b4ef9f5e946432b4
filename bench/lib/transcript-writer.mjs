#!/usr/bin/env node
// A pane program for the usage benches: reports itself as Claude Code over the daemon socket (naming
// its transcript as `record` unless WRITER_UNNAMED=1), then appends one turn to the transcript every
// WRITER_EVERY_MS in Claude Code's format (a user line of WRITER_USER_BYTES, two assistant lines of one
// message with its usage), printing one short line per turn, until killed.
import { appendFileSync } from 'node:fs';
import { connect } from 'node:net';

const file = process.env.WRITER_FILE;
const every = Number(process.env.WRITER_EVERY_MS ?? 500);
const userBytes = Number(process.env.WRITER_USER_BYTES ?? 4096);
const socket = connect(process.env.CORRAL_SOCKET);
socket.on('error', () => {});
const record = process.env.WRITER_UNNAMED === '1' ? {} : { record: { format: 'claude', path: file } };
socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'pane.reportAgent', params: { target: process.env.CORRAL_PANE, source: 'hook:claude', agent: 'claude', state: 'idle', pid: process.pid, ...record } })}\n`);
let turn = 0;
const filler = 'x'.repeat(userBytes);
setInterval(() => {
  turn += 1;
  const at = new Date().toISOString();
  const message = { id: `msg_${process.pid}_${turn}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 20 } };
  const lines = [
    { type: 'user', message: { role: 'user', content: filler }, timestamp: at },
    { type: 'assistant', message: { ...message, content: [{ type: 'thinking', thinking: 'hm' }] }, requestId: `r${turn}`, timestamp: at },
    { type: 'assistant', message: { ...message, content: [{ type: 'text', text: 'done' }] }, requestId: `r${turn}`, timestamp: at },
  ];
  appendFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  process.stdout.write(`turn ${turn}\r\n`);
}, every);
