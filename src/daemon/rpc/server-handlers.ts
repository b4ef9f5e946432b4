import { RPC_DISCOVER } from '../../protocol/methods/discover.ts';
import { SERVER_STATUS, SERVER_STOP } from '../../protocol/methods/server.ts';
import { openRpcDocument } from '../../protocol/openrpc/document.ts';
import { PROTOCOL_MINOR, PROTOCOL_VERSION } from '../../protocol/version.ts';
import { implement, type HandlerBinding } from './handler.ts';

interface ServerInfo {
  version: string;
  socket: string;
  startedAt: number;
}

/** Live counts the status reports: panes, client connections and pending `agent.wait`s. */
type ServerCounts = () => { paneCount: number; connections: number; waits: number };

/** Stops the daemon once the answer is on its way: `end` ends every pane, `detach` leaves them running. */
type StopDaemon = (panes: 'detach' | 'end') => void;

export function serverHandlers(server: ServerInfo, counts: ServerCounts, stop: StopDaemon): HandlerBinding[] {
  const document = openRpcDocument(server.version);
  return [
    implement(RPC_DISCOVER, () => document),
    implement(SERVER_STATUS, () => {
      const { paneCount, ...clients } = counts();
      return {
        version: server.version,
        protocolVersion: PROTOCOL_VERSION,
        protocolMinor: PROTOCOL_MINOR,
        pid: process.pid,
        uptimeMs: Date.now() - server.startedAt,
        paneCount,
        socket: server.socket,
        ...clients,
      };
    }),

    implement(SERVER_STOP, ({ panes }) => {
      const ending = panes === true;
      // After this turn of the event loop, so the answer is written before the socket closes.
      setImmediate(() => stop(ending ? 'end' : 'detach'));
      return { panes: counts().paneCount, ending };
    }),
  ];
}
