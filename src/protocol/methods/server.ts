import { defineMethod, returns } from '../method.ts';
import { Type } from '@sinclair/typebox';
import { STRICT } from '../schema.ts';

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
  params: Type.Object({}, STRICT),
  result: returns<ServerStatus>(),
  errors: [],
});

/** What a config reload did, by dotted key (`notify.command`): only keys whose value changed are named. */
export interface ConfigReloadResult {
  /** The file read; null when the default path has no file (the embedded defaults apply). */
  file: string | null;
  /** Changed keys now in effect. */
  applied: string[];
  /** Changed keys that take effect only when the daemon starts again. */
  restart: string[];
}

export const SERVER_RELOAD_CONFIG = defineMethod({
  name: 'server.reloadConfig',
  summary: 'Read config.toml again (as SIGHUP does): apply the changed keys that can change live, and name those that need a restart.',
  params: Type.Object({}, STRICT),
  result: returns<ConfigReloadResult>(),
  errors: ['config_invalid'],
});

export const SERVER_STOP = defineMethod({
  name: 'server.stop',
  summary: 'Stop the daemon after answering. `panes: false` leaves the agents running in the pty host; `panes: true` ends every pane (SIGHUP, then SIGKILL) and the host.',
  params: Type.Object({ panes: Type.Boolean() }, STRICT),
  result: returns<{ panes: number; ending: boolean }>(),
  errors: [],
});
