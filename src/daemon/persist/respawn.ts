import { resumeLaunch } from '../../integration/resume-launch.ts';
import { CorralError } from '../../protocol/errors.ts';
import type { PaneInfo } from '../../protocol/methods/pane.ts';
import type { AgentService } from '../agents/agent-service.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';

/**
 * Starts a lost or exited pane's command again under the same id, name, cwd, size and environment,
 * without the secrets the state file never kept: such a key comes from the daemon's own environment
 * when it has one and is missing otherwise, which the log names. When the agent's manifest declares a
 * resume form and a session id is known, the form is added to the agent's arguments for this start,
 * inside any wrapper that starts it: the conversation goes on. `fresh` starts the plain command.
 */
export async function respawnPane(
  registry: PaneRegistry,
  agents: AgentService,
  pane: PaneRecord,
  fresh = false,
): Promise<PaneInfo & { resumed: string | null }> {
  if (pane.external !== null) {
    throw new CorralError('pane_external', `pane ${pane.label()} is an agent started outside Corral, known from its hooks only: there is nothing to respawn`, { id: pane.id });
  }
  if (pane.lifecycle === 'running') {
    throw new CorralError('pane_running', `pane ${pane.label()} is still running; only a lost or exited pane can be respawned`, { id: pane.id });
  }
  const { agent, session } = lastAgentOf(agents, pane);
  const { id, name, workspace, command, args, cwd } = pane.identity;
  const resumed =
    fresh || agent === null || session === null
      ? null
      : resumeLaunch({ command, args, env: pane.env }, agents.manifests.all().map((manifest) => manifest.spec), agent, session);
  const { cols, rows } = pane.terminal;
  const env = pane.env;
  const previous = pane.previous;
  await registry.remove(pane);
  const next = await registry.spawn(
    // A pane started with --no-integrate comes back without Corral's hooks too.
    { command, args, cwd, env, cols, rows, workspace, ...(name !== null ? { name } : {}), ...(pane.integrate ? {} : { integrate: false }) },
    { id, ...(resumed ? { startArgs: resumed.args } : {}), previous: previous ? { ...previous, arbiter: null } : null, droppedEnv: pane.droppedEnv },
  );
  return { ...next.info(), resumed: resumed ? session : null };
}

function lastAgentOf(agents: AgentService, pane: PaneRecord): { agent: string | null; session: string | null } {
  if (pane.lifecycle === 'lost' && pane.previous) return { agent: pane.previous.agent, session: pane.previous.session };
  try {
    const last = agents.of(pane).arbiter.lastSession;
    if (last !== null) return last;
  } catch {
    // no tracker
  }
  return { agent: pane.previous?.agent ?? null, session: pane.previous?.session ?? null };
}
