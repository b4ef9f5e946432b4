import { connectFleet, fleetHosts, LastSeenFile, lastSeenPath, type CorralClient } from '../client/index.ts';

/** Every machine of the fleet and its agents in one call; the other tools then take `NAME@HOST` targets (a `Tool` of tools.ts). */
export const LIST_FLEET = {
  name: 'list_fleet',
  description:
    'List the agents on every machine of the fleet (this one as "local", and the hosts named in config.toml), each ' +
    'host\'s state ("connected", or "offline" with the reason) and how many agents need you (blocked or done) per host ' +
    'and in all. Returns {hosts: [{name, state, reason, needsYou, counts}], needsYou, seq: {HOST: seq}, agents: [{host, id, ' +
    'name, state, stale, lastSeen?, prompt?}]}. An offline host\'s agents show their last known state with stale: true and ' +
    'lastSeen (ms since the epoch: when the host was last connected). To act ' +
    'on an agent of another host, give the other tools its target as NAME@HOST ("api@build").',
  inputSchema: { type: 'object' as const, properties: {}, additionalProperties: false },
  async run(client: CorralClient) {
    // The CLI's file of each host's last known agents (docs/fleet.md): a host away now still shows them, stale.
    const lastSeen = new LastSeenFile(lastSeenPath(client.socket));
    const fleet = await connectFleet(fleetHosts({ socket: client.socket }), { onWarning: (message) => process.stderr.write(`corral mcp: ${message}\n`), lastSeen, once: true });
    try {
      const list = await fleet.list();
      return {
        hosts: list.hosts.map(({ name, state, reason, needsYou, counts }) => ({ name, state, reason, needsYou, counts })),
        needsYou: list.fleet.needsYou,
        seq: list.seq,
        agents: list.agents.map((a) => ({ host: a.host, id: a.id, name: a.name, agent: a.agent, state: a.state, stale: a.stale, ...(a.lastSeen !== undefined ? { lastSeen: a.lastSeen } : {}), title: a.title, ...(a.prompt ? { prompt: a.prompt } : {}) })),
      };
    } finally {
      fleet.close();
    }
  },
};
