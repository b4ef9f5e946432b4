import { defineMethod, returns } from '../method.ts';
import { bool, params } from '../validate.ts';

export interface ServerStatus {
  version: string; // the daemon's package version
  protocolVersion: number; // MAJOR: clients refuse or warn when it differs from theirs
  protocolMinor: number; // MINOR: additions only (docs/protocol.md, "Versions")
  pid: number;
  uptimeMs: number;
  paneCount: number;
  socket: string;
  connections: number; // client connections open now, this one included
  waits: number; // pending agent.wait calls

}

export const SERVER_STATUS = defineMethod({
  name: 'server.status',
  summary: 'Daemon version, protocol version, pid, uptime, pane count, open connections and pending waits.',
  params: params({}),
  result: returns<ServerStatus>(),
  errors: [],
});

export const SERVER_STOP = defineMethod({
  name: 'server.stop',
  summary: 'Stop the daemon after answering. `panes: false` leaves the agents running in the pty host; `panes: true` ends every pane (SIGHUP, then SIGKILL) and the host.',
  params: params({ panes: bool() }),
  result: returns<{ panes: number; ending: boolean }>(),
  errors: [],
});
