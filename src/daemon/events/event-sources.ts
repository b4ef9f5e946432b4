import type { AgentState } from '../../protocol/states.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import type { AgentChange, AgentService } from '../agents/agent-service.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import type { EventHub } from './event-hub.ts';
import { rollup } from '../agents/list-view.ts';

/** What a person reads in a notification for each attention state. */
const ATTENTION_MESSAGES = {
  blocked: 'waits for a decision',
  done: 'finished',
} as const;

/**
 * Publishes the daemon's facts as events: pane lifecycle from the registry's hooks and one group of
 * agent events per published agent change (never per output batch), each with its state_change_seq.
 */
export function publishDaemonEvents(hub: EventHub, registry: PaneRegistry, agents: AgentService, announcedBefore: ReadonlySet<string> = new Set()): Disposable {
  const lastAgent = new Map<string, string | null>(); // by pane id, for filters on pane events
  const ref = (pane: { id: string; name: string | null }) => ({ id: pane.id, name: pane.name });
  const agentOf = (pane: PaneRecord) => {
    const agent = agents.find(pane);
    return agent ? agent.view().agent : (lastAgent.get(pane.id) ?? null);
  };
  // The agent tracker hangs on the same hook and may publish its first change before ours runs:
  // whichever comes first announces the pane, so pane.created always precedes its agent events.
  // A pane an earlier daemon of this stream announced (the durable log) is not announced again.
  const announced = new Set<string>(announcedBefore);
  const announce = (pane: PaneRecord) => {
    if (announced.has(pane.id)) return;
    announced.add(pane.id);
    hub.publish('pane.created', ref(pane), pane.info(), agentOf(pane));
  };
  // Each workspace's rollup state as last published: a change of it is a workspace.stateChanged.
  const rolledUp = new Map<string, AgentState>();
  const publishRollup = () => {
    const infos = registry.list().flatMap((pane) => (agents.find(pane) ? [agents.info(pane)] : []));
    const now = new Map(rollup(infos).map((w) => [w.workspace, w] as const));
    for (const workspace of new Set([...rolledUp.keys(), ...now.keys()])) {
      const from = rolledUp.get(workspace) ?? null;
      const current = now.get(workspace);
      const to = current?.state ?? null;
      if (from === to) continue;
      if (to === null) rolledUp.delete(workspace);
      else rolledUp.set(workspace, to);
      hub.publish('workspace.stateChanged', null, { workspace, from, to, counts: current?.counts ?? null }, null);
    }
  };
  const subscriptions = new DisposableStore();
  subscriptions.add(registry.onCreated(announce));
  subscriptions.add(
    registry.onExited((pane) => {
      const { exitCode, signal } = pane.info();
      hub.publish('pane.exited', ref(pane), { exitCode, signal }, agentOf(pane));
    }),
  );
  subscriptions.add(
    registry.onRemoved((info) => {
      hub.publish('pane.removed', ref(info), { exitCode: info.exitCode, signal: info.signal }, lastAgent.get(info.id) ?? null);
      lastAgent.delete(info.id);
      announced.delete(info.id);
      publishRollup();
    }),
  );
  subscriptions.add(
    agents.onChange((change) => {
      announce(change.pane);
      lastAgent.set(change.pane.id, change.record.after.agent ?? change.record.before.agent);
      // A recovered pane's changes until it settles are marked recovered. Only a state it reached while no
      // daemon ran asks for attention: what a replayed ring merely recomputes notifies nobody.
      const recovered = change.recomputed !== undefined;
      const unannounced = change.recomputed === 'changed';
      publishAgentChange(hub, change, recovered, unannounced);
      publishRollup();
    }),
  );
  return subscriptions;
}

function publishAgentChange(hub: EventHub, change: AgentChange, recovered: boolean, unannounced: boolean): void {
  const { seq, pane, record, info } = change;
  const { before, after } = record;
  const paneRef = { id: pane.id, name: pane.name };
  if (change.extrasOnly) {
    // Only the steering queue or the prompt moved: not a state change, so no stateChanged and no attention.
    if (change.promptChanged) {
      if (info.prompt) hub.publish('agent.promptChanged', paneRef, { agent: after.agent, prompt: info.prompt, seq, info }, after.agent);
    } else {
      hub.publish('agent.queueChanged', paneRef, { agent: after.agent, queued: info.queued, seq, info }, after.agent);
    }
    return;
  }
  if (record.kind === 'released') {
    hub.publish('agent.released', paneRef, { agent: before.agent, state: before.displayed, seq }, before.agent);
    return;
  }
  if (after.agent !== null && after.agent !== before.agent) {
    hub.publish('agent.detected', paneRef, { agent: after.agent, previous: before.agent, state: after.displayed, seq, info }, after.agent);
  }
  // A change a client cannot see (a new pane's unknown to unknown, a new rule for the same state) is no
  // stateChanged; one that only marks the agent seen has its own kind.
  if (before.displayed === after.displayed && before.agent === after.agent) {
    if (before.seen !== after.seen) hub.publish('agent.seen', paneRef, { agent: after.agent, state: after.displayed, seen: after.seen, seq, info }, after.agent);
    return;
  }
  hub.publish(
    'agent.stateChanged',
    paneRef,
    {
      agent: after.agent,
      from: before.displayed,
      to: after.displayed,
      rule: after.rule,
      source: after.source,
      seen: after.seen,
      revision: after.revision,
      seq,
      ...(recovered ? { recovered: true as const } : {}),
      ...(unannounced && typeof pane.terminal.outputEndedAt === 'number' ? { outputEndedAt: pane.terminal.outputEndedAt } : {}),
      ...(after.displayed === 'blocked' && info.prompt ? { prompt: info.prompt } : {}),
      info,
    },
    after.agent,
  );
  const entering = attentionState(after.displayed);
  if (entering && (!recovered || unannounced) && (before.displayed !== after.displayed || before.agent !== after.agent)) {
    hub.publish(
      'agent.attention',
      paneRef,
      { agent: after.agent, state: entering, from: before.displayed, title: info.title, message: ATTENTION_MESSAGES[entering], seq, ...(entering === 'blocked' && info.prompt ? { prompt: info.prompt } : {}) },
      after.agent,
    );
  }
}

function attentionState(state: AgentState): 'blocked' | 'done' | null {
  return state === 'blocked' || state === 'done' ? state : null;
}
