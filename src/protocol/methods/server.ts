import { defineMethod, returns } from '../method.ts';
import { params } from '../validate.ts';

export interface ServerStatus {
  version: string; // the daemon's package version
  protocolVersion: number;
  pid: number;
  uptimeMs: number;
  paneCount: number;
  socket: string;
}

export const SERVER_STATUS = defineMethod({
  name: 'server.status',
  summary: 'Daemon version, protocol version, pid, uptime and pane count.',
  params: params({}),
  result: returns<ServerStatus>(),
  errors: [],
});
