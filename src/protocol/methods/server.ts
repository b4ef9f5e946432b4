import { defineMethod } from '../method.ts';
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, STRICT } from '../schema.ts';

export const ServerStatus = Type.Object({
  version: Type.String(), // the daemon's package version
  protocolVersion: Type.Number(), // MAJOR: clients refuse or warn when it differs from theirs
  protocolMinor: Type.Number(), // MINOR: additions only (docs/protocol.md, "Versions")
  pid: Type.Number(),
  uptimeMs: Type.Number(),
  paneCount: Type.Number(),
  socket: Type.String(),
  connections: Type.Number(), // client connections open now, this one included
  waits: Type.Number(), // pending agent.wait calls
});
export type ServerStatus = Static<typeof ServerStatus>;

export const SERVER_STATUS = defineMethod({
  name: 'server.status',
  summary: 'Daemon version, protocol version, pid, uptime, pane count, open connections and pending waits.',
  params: Type.Object({}, STRICT),
  result: ServerStatus,
  errors: [],
});

/** What a config reload did, by dotted key (`notify.command`): only keys whose value changed are named. */
export const ConfigReloadResult = Type.Object({
  file: Nullable(Type.String(), { description: 'The file read; null when the default path has no file (the embedded defaults apply).' }),
  applied: Type.Array(Type.String(), { description: 'Changed keys now in effect.' }),
  restart: Type.Array(Type.String(), { description: 'Changed keys that take effect only when the daemon starts again.' }),
});
export type ConfigReloadResult = Static<typeof ConfigReloadResult>;

export const SERVER_RELOAD_CONFIG = defineMethod({
  name: 'server.reloadConfig',
  summary: 'Read config.toml again (as SIGHUP does): apply the changed keys that can change live, name those that need a restart, and read the policy files again (docs/policy.md).',
  params: Type.Object({}, STRICT),
  result: ConfigReloadResult,
  errors: ['config_invalid', 'policy_invalid'],
});

export const SERVER_STOP = defineMethod({
  name: 'server.stop',
  summary: 'Stop the daemon after answering. `panes: false` leaves the agents running in the pty host; `panes: true` ends every pane (SIGHUP, then SIGKILL) and the host.',
  params: Type.Object({ panes: Type.Boolean() }, STRICT),
  result: Type.Object({ panes: Type.Number(), ending: Type.Boolean() }),
  errors: [],
});
