import { CorralError } from '../../protocol/errors.ts';
import { AGENT_WAIT, DEFAULT_WAIT_UNTIL, type AgentWaitResult } from '../../protocol/methods/agent-wait.ts';
import { inGroup, isGroupTarget } from '../../protocol/pane-target.ts';
import type { AgentService } from '../agents/agent-service.ts';
import type { DaemonCore } from '../agents/core.ts';
import { implement, type DaemonPart, type HandlerBinding } from '../rpc/handler.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import { expandUntil } from './wait-match.ts';
import type { WaitTarget } from './pending-wait.ts';
import { WaitHub } from './wait-hub.ts';

interface TargetChoice {
  targets?: string[] | undefined;
  allAgents?: boolean | undefined;
  allowUnknown?: boolean | undefined;
}

/**
 * The panes a wait names, each under the key its result uses: a single target as given, a member of
 * a group (`@W`, a pattern, `allAgents`) under its name, else its id. A running pane that has drawn
 * output but has no identified agent (looked at again now) fails at once with `no_agent` unless
 * `allowUnknown`; a group keeps its running members that are not unknown (all of them with `allowUnknown`).
 */
function waitTargets(registry: PaneRegistry, agents: AgentService, hub: WaitHub, choice: TargetChoice): WaitTarget[] {
  const chosen = new Map<PaneRecord, string>();
  const hasAgent = (pane: PaneRecord) => (pane.lifecycle === 'running' ? agents.of(pane).refresh() : agents.of(pane).view()).agent !== null;
  // A pane that has drawn nothing yet may still be starting its agent (between fork and exec, or a
  // launcher): it is not unknown yet, and the wait waits for it as before.
  // A pane whose agent was released is gone (agent_gone), not unknown.
  // The foreground is looked at again only for a pane that has drawn: a pane still starting is left alone.
  const unknown = (pane: PaneRecord) => pane.lifecycle === 'running' && agents.of(pane).hasDrawn && !hub.released(pane) && !hasAgent(pane);
  const keyOf = (pane: PaneRecord) => pane.name ?? pane.id;
  const addGroup = (label: string, members: PaneRecord[]) => {
    const kept = members.filter((pane) => pane.lifecycle === 'running' && !hub.released(pane) && (choice.allowUnknown === true || !unknown(pane)));
    if (kept.length === 0) {
      throw new CorralError('no_agent', `${label} has no pane with an identified agent; see \`corral agent list --all\`, or wait with --allow-unknown`, {
        target: label,
      });
    }
    for (const pane of kept) if (!chosen.has(pane)) chosen.set(pane, keyOf(pane));
  };
  if (choice.targets === undefined && choice.allAgents !== true) {
    throw new CorralError('invalid_params', '"targets" must name at least one pane, or "allAgents" be true', { field: 'targets' });
  }
  if (choice.allAgents === true) addGroup('the daemon', registry.list());
  for (const target of new Set(choice.targets ?? [])) {
    if (isGroupTarget(target)) {
      const members = registry.list().filter((pane) => inGroup(target, pane.identity));
      if (members.length === 0) throw new CorralError('pane_not_found', `no pane matches "${target}"; run \`corral pane list\``, { target });
      addGroup(`"${target}"`, members);
      continue;
    }
    const pane = registry.resolve(target);
    if (choice.allowUnknown !== true && unknown(pane)) {
      throw new CorralError(
        'no_agent',
        `pane ${target} has no identified agent (its foreground program is not one the manifests know); wait with --allow-unknown if one is starting, or see \`corral agent explain ${target}\``,
        { target },
      );
    }
    chosen.set(pane, target); // as given, even when a group named the pane too
  }
  return [...chosen].map(([pane, name]) => ({ name, pane }));
}

/** The screen of each matched target, read when the wait ended. */
function screensOf(targets: WaitTarget[], result: AgentWaitResult): Record<string, string> {
  const screens: Record<string, string> = {};
  for (const target of targets) if (result.matched.includes(target.name)) screens[target.name] = target.pane.terminal.read({ source: 'screen' });
  return screens;
}

/** The pending `agent.wait`s: the hub that routes agent changes to them, and the method; `size` counts them. */
export function startWaits(core: DaemonCore, history?: ConstructorParameters<typeof WaitHub>[2]): DaemonPart & { readonly size: number } {
  const hub = new WaitHub(core.registry, core.agents, history);
  return {
    get size() {
      return hub.size;
    },
    handlers: agentWaitHandlers(core.registry, core.agents, hub),
    dispose: () => hub.dispose(),
  };
}

function agentWaitHandlers(registry: PaneRegistry, agents: AgentService, hub: WaitHub): HandlerBinding[] {
  return [
    implement(AGENT_WAIT, async (params, context) => {
      const current = agents.stateChangeSeq;
      if (params.sinceSeq !== undefined && params.sinceSeq > current) {
        throw new CorralError(
          'invalid_params',
          `"sinceSeq" ${params.sinceSeq} is ahead of the daemon's state_change_seq ${current} (the seq outlives restarts while the daemon's event log is kept: was it removed?); take a fresh one from \`corral agent list --json\``,
          { field: 'sinceSeq', seq: current },
        );
      }
      const targets = waitTargets(registry, agents, hub, params);
      const result = await hub.wait(
        {
          targets,
          want: expandUntil(params.until ?? DEFAULT_WAIT_UNTIL),
          mode: params.mode ?? 'any',
          stableMs: params.stableMs ?? 0,
          ...(params.sinceSeq !== undefined ? { sinceSeq: params.sinceSeq } : {}),
          ...(params.timeoutMs !== undefined ? { timeoutMs: params.timeoutMs } : {}),
        },
        context.signal,
      );
      return params.read === true ? { ...result, screens: screensOf(targets, result) } : result;
    }),
  ];
}
