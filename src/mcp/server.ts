import { ClientError, connect } from '../client/index.ts';
import { HostClients } from './host-clients.ts';
import { LiveAttention } from './live-attention.ts';
import { CorralError } from '../protocol/errors.ts';
import { LineBound, idOf, isToolCall, type OversizedLine } from './line-bound.ts';
import { TOOLS } from './tools.ts';

/**
 * The longest MCP message taken, in bytes. A tool's arguments go to the daemon in one line of at most
 * 1 MiB (MAX_FRAME_BYTES), so a longer message could never be served; past this it is not even kept.
 */
export const MAX_MCP_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * `corral mcp`: a Model Context Protocol server on stdin/stdout (docs/mcp.md). Every tool is a call
 * through `corral/client`; stdout carries only MCP messages, so anything else goes to stderr.
 */
export async function runMcpServer(options: { socket: string; version: string }): Promise<void> {
  // Imported here, not at the top: the CLI bundle hoists static imports, and no other command needs the SDK.
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const client = await connect({ socket: options.socket, onWarning: (message) => process.stderr.write(`corral mcp: ${message}\n`) });
  const hosts = new HostClients(client, options.socket);
  // The attention tools answer from one live picture of this machine's daemon, kept by its events.
  const attention = new LiveAttention(client);
  const server = new Server({ name: 'corral', version: options.version }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS.find((candidate) => candidate.name === request.params.name);
    if (!tool) return failure(`unknown tool "${request.params.name}"; the tools are ${TOOLS.map((t) => t.name).join(', ')}`);
    try {
      const { client: on, args } = await hosts.route(request.params.arguments ?? {});
      const result = await tool.run(on, args, extra.signal, attention);
      return { content: [{ type: 'text' as const, text: JSON.stringify(result, null, 2) }] };
    } catch (error) {
      if (error instanceof CorralError) return failure(`${error.code}: ${error.message}`);
      if (error instanceof ClientError) return failure(`${error.code}: ${error.message}`);
      throw error;
    }
  });

  // Over-long messages are answered here, before the SDK's reader, which would close the server on them.
  const input = process.stdin.pipe(new LineBound(MAX_MCP_MESSAGE_BYTES, (line) => refuseOversized(line)));
  const transport = new StdioServerTransport(input, process.stdout);
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  transport.onerror = (error) => process.stderr.write(`corral mcp: ${error.message}\n`);
  input.once('end', () => void server.close());
  await server.connect(transport);
  await closed;
  attention.close();
  hosts.close();
  client.close();
}

/**
 * An MCP message over MAX_MCP_MESSAGE_BYTES: a tool call gets a tool error naming the limit, any other
 * request a JSON-RPC error, and the server goes on. A line whose id cannot be found is only logged.
 */
function refuseOversized(line: OversizedLine): void {
  const id = idOf(line);
  const what = `the message is ${line.bytes} bytes; corral mcp takes at most ${MAX_MCP_MESSAGE_BYTES} (and the daemon a request of 1 MiB)`;
  process.stderr.write(`corral mcp: refused ${what}${id === null ? ', with no id to answer' : ''}\n`);
  if (id === null) return;
  const reply = isToolCall(line)
    ? { jsonrpc: '2.0', id, result: failure(`arguments_too_large: ${what}: send less, for example a shorter prompt or a file path in place of its contents`) }
    : { jsonrpc: '2.0', id, error: { code: -32600, message: `message too large: ${what}` } };
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}

function failure(text: string) {
  return { isError: true, content: [{ type: 'text' as const, text }] };
}
