import { ClientError, connect } from '../client/index.ts';
import { CorralError } from '../protocol/errors.ts';
import { TOOLS } from './tools.ts';

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
  const server = new Server({ name: 'corral', version: options.version }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS.find((candidate) => candidate.name === request.params.name);
    if (!tool) return failure(`unknown tool "${request.params.name}"; the tools are ${TOOLS.map((t) => t.name).join(', ')}`);
    try {
      const result = await tool.run(client, request.params.arguments ?? {}, extra.signal);
      return { content: [{ type: 'text' as const, text: JSON.stringify(result, null, 2) }] };
    } catch (error) {
      if (error instanceof CorralError) return failure(`${error.code}: ${error.message}`);
      if (error instanceof ClientError) return failure(`${error.code}: ${error.message}`);
      throw error;
    }
  });

  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  process.stdin.once('end', () => void server.close());
  await server.connect(transport);
  await closed;
  client.close();
}

function failure(text: string) {
  return { isError: true, content: [{ type: 'text' as const, text }] };
}
