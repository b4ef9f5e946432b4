import { SERVER_STATUS } from '../../protocol/methods/server.ts';
import { PROTOCOL_VERSION } from '../../protocol/version.ts';
import { implement, type HandlerBinding } from '../handler.ts';
import type { PaneRegistry } from '../pane-registry.ts';

export interface ServerInfo {
  version: string;
  socket: string;
  startedAt: number;
}

/** Live counts the status reports: client connections and pending `agent.wait`s. */
export type ServerCounts = () => { connections: number; waits: number };

export function serverHandlers(server: ServerInfo, registry: PaneRegistry, counts: ServerCounts): HandlerBinding[] {
  return [
    implement(SERVER_STATUS, () => ({
      version: server.version,
      protocolVersion: PROTOCOL_VERSION,
      pid: process.pid,
      uptimeMs: Date.now() - server.startedAt,
      paneCount: registry.size,
      socket: server.socket,
      ...counts(),
    })),
  ];
}
