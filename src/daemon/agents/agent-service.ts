import type { ChangeRecord, Clock } from '../../arbiter/index.ts';
import { systemClock, type AgentView, type ArbiterWindows, type InbandPolicy } from '../../arbiter/index.ts';
import type { ManifestSet } from '../../manifest-store/manifest-set.ts';
import type { AgentInfo } from '../../protocol/methods/agent.ts';
import type { AgentPrompt } from '../../protocol/prompt.ts';
import type { AgentUsageField } from '../../protocol/usage.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import { Emitter } from '../../base/emitter.ts';
import type { Logger } from '../logger.ts';
import { PaneSlot, type PaneRecord } from '../panes/pane-record.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import type { AgentIdentifier } from './identifier.ts';
import { PaneAgent } from './pane-agent.ts';
import { Recomputations, type PriorState, type Recomputed } from './recomputation.ts';

const AGENT_SLOT = new PaneSlot<PaneAgent>('agent');

/** One published change of a pane's agent, numbered by the daemon-wide state_change_seq. */
export interface AgentChange {
  seq: number;
  pane: PaneRecord;
  record: ChangeRecord;
  /** The pane's agent as clients see it after the change. */
  info: AgentInfo;
  /**
   * Set by `touch()`: only an extra of AgentInfo changed (the steering queue's `queued`); the state did
   * not, `record.before` is `record.after`, and `seq` is not advanced. Waits and state events skip it.
   */
  extrasOnly?: true;
  /** Set on a recovered pane's changes until it settles (see recomputation.ts). */
  recomputed?: Recomputed;
  /** With extrasOnly: what changed is the prompt of a pane that stays blocked (a new dialog, a new id). */
  promptChanged?: true;
}

interface AgentServiceOptions {
  registry: PaneRegistry;
  manifests: ManifestSet;
  identifier: (manifests: ManifestSet) => AgentIdentifier;
  log: Logger;
  clock?: Clock;
  windows?: Partial<ArbiterWindows>;
  inband?: InbandPolicy;
  /** The last state_change_seq an earlier daemon published (from the durable event log): numbering continues after it. */
  seqAfter?: number;
  /** Each recovered pane's agent and state as last published before the restart (the durable log). */
  prior?: ReadonlyMap<string, PriorState>;
}

/**
 * The fields of AgentInfo other features own (the steering queue's `queued`, the metadata), each with
 * its value while no feature has registered it. A feature that adds a field adds it here.
 */
const NO_EXTRAS = { queued: 0, metadata: null as Record<string, unknown> | null };
/** With them, what the agent spent (daemon/usage/): absent from AgentInfo while no usage reading runs. */
export type AgentInfoExtras = typeof NO_EXTRAS & { usage: AgentUsageField };
type ExtraReaders = { [K in keyof AgentInfoExtras]?: (paneId: string) => AgentInfoExtras[K] };

/** An agent's own record of its session (a transcript), as its hooks named it. */
export interface AgentRecordNamed {
  pane: PaneRecord;
  format: string;
  path: string;
}

/**
 * Every pane's agent: hangs a PaneAgent on each new pane, numbers every published change with the
 * daemon-wide state_change_seq, and tells listeners (events, waits, notifications) in order.
 */
export class AgentService implements Disposable {
  private seq = 0;
  private identifier: AgentIdentifier;
  private reloading: Promise<void> = Promise.resolve();
  private readonly changed: Emitter<AgentChange>;
  private readonly accepted: Emitter<PaneRecord>;
  private readonly recordNamed: Emitter<AgentRecordNamed>;
  private readonly subscriptions = new DisposableStore();
  private readonly extras: ExtraReaders = {};
  private readonly recomputations: Recomputations;

  constructor(private readonly options: AgentServiceOptions) {
    this.recomputations = new Recomputations(options.prior ?? new Map());
    this.subscriptions.add(options.registry.onRemoved((info) => this.recomputations.forget(info.id)));
    this.seq = options.seqAfter ?? 0;
    this.identifier = options.identifier(options.manifests);
    this.changed = new Emitter((error) => options.log.error({ err: error }, 'agent change listener failed'));
    this.accepted = new Emitter((error) => options.log.error({ err: error }, 'report listener failed'));
    this.recordNamed = new Emitter((error) => options.log.error({ err: error }, 'record listener failed'));
    this.subscriptions.add(options.registry.onCreated((pane) => this.track(pane)));
    for (const pane of options.registry.list()) this.track(pane);
  }

  get manifests(): ManifestSet {
    return this.options.manifests;
  }

  /** The daemon-wide count of published agent changes; waits use it as `sinceSeq`. */
  get stateChangeSeq(): number {
    return this.seq;
  }

  /** Fires after a report was accepted, changed state or not (a session id, a seq watermark). */
  onReportAccepted(listener: (pane: PaneRecord) => void): Disposable {
    return this.accepted.event(listener);
  }

  /** Fires when an accepted report names the agent's record (`record` of pane.reportAgent, docs/usage.md). */
  onRecordNamed(listener: (named: AgentRecordNamed) => void): Disposable {
    return this.recordNamed.event(listener);
  }

  /** A report named the agent's record: told to whoever reads usage. */
  nameRecord(named: AgentRecordNamed): void {
    this.recordNamed.fire(named);
  }

  onChange(listener: (change: AgentChange) => void): Disposable {
    return this.changed.event(listener);
  }

  /** The pane's agent tracker; undefined once the pane was disposed (its tracker went with it). */
  find(pane: PaneRecord): PaneAgent | undefined {
    return pane.get(AGENT_SLOT);
  }

  /** The tracker of a pane that is known to be live (resolved for this request); throws otherwise. */
  of(pane: PaneRecord): PaneAgent {
    const agent = this.find(pane);
    if (!agent) throw new Error(`pane ${pane.id} has no agent tracker`);
    return agent;
  }

  info(pane: PaneRecord, view: AgentView = this.of(pane).view()): AgentInfo {
    // Title and progress as the program emitted them (what the snapshot carries), without building the screen text.
    const { osc } = pane.terminal;
    return {
      id: pane.id,
      name: pane.name,
      workspace: pane.identity.workspace,
      agent: view.agent,
      identity: view.identity,
      state: view.displayed,
      rawState: view.state,
      seen: view.seen,
      stateSince: this.stateSince(pane, view),
      revision: view.revision,
      rule: view.rule,
      source: view.source,
      title: osc.title?.value ?? null,
      progress: osc.progress?.value ?? null,
      queued: this.extra('queued', pane.id),
      metadata: this.extra('metadata', pane.id),
      ...(this.extras.usage && view.agent !== null ? { usage: this.extras.usage(pane.id) } : {}),
      paneState: pane.lifecycle,
      ...promptOf(this.find(pane), view),
    };
  }

  /**
   * A feature that owns a field of AgentInfo registers how to read it when it starts (the steering
   * queue its `queued`, the metadata store its `metadata`); until then, and after, the field is its default.
   */
  registerExtra<K extends keyof AgentInfoExtras>(field: K, read: (paneId: string) => AgentInfoExtras[K]): Disposable {
    if (this.extras[field] !== undefined) throw new Error(`AgentInfo.${field} is registered already`);
    (this.extras as Record<K, (paneId: string) => AgentInfoExtras[K]>)[field] = read;
    return {
      dispose: () => {
        if (this.extras[field] === read) delete this.extras[field];
      },
    };
  }

  private extra<K extends keyof typeof NO_EXTRAS>(field: K, paneId: string): (typeof NO_EXTRAS)[K] {
    const read = this.extras[field] as ((paneId: string) => (typeof NO_EXTRAS)[K]) | undefined;
    return read ? read(paneId) : NO_EXTRAS[field];
  }

  /** When the pane's agent or raw state last changed; a state a restart merely recomputed keeps its age. */
  stateSince(pane: PaneRecord, view: AgentView): number {
    return this.recomputations.stateSince(pane.id, view.stateSince);
  }

  /**
   * Republishes the pane's info after an extra changed (the steering queue), so that `queued` reaches
   * listeners; see `AgentChange.extrasOnly`. Nothing happens for a pane already disposed.
   */
  touch(pane: PaneRecord, what: 'queue' | 'prompt' = 'queue'): void {
    const agent = pane.get(AGENT_SLOT);
    if (!agent) return;
    const view = agent.view();
    const at = (this.options.clock ?? systemClock).now();
    const record: ChangeRecord = { kind: 'changed', at, revision: view.revision, before: view, after: view };
    this.changed.fire({ seq: this.seq, pane, record, info: this.info(pane, view), extrasOnly: true, ...(what === 'prompt' ? { promptChanged: true as const } : {}) });
  }

  /**
   * Re-reads manifests from every source, one file per event-loop turn so clients stay answered,
   * and re-evaluates every pane under them. Reloads run one after another.
   */
  reloadManifests(): Promise<void> {
    const reload = async () => {
      const errors = await this.options.manifests.reloadInTurns();
      this.identifier = this.options.identifier(this.options.manifests);
      for (const error of errors) this.options.log.warn({ file: error.file, code: error.code }, error.message);
      for (const pane of this.options.registry.list()) pane.get(AGENT_SLOT)?.manifestsChanged();
    };
    const run = this.reloading.then(reload, reload);
    this.reloading = run.catch(() => undefined);
    return run;
  }

  dispose(): void {
    this.subscriptions.dispose();
    this.changed.dispose();
    this.recordNamed.dispose();
  }

  private track(pane: PaneRecord): void {
    pane.hang(
      AGENT_SLOT,
      new PaneAgent(pane, {
        manifests: () => this.options.manifests,
        identify: () => this.identifier,
        clock: this.options.clock ?? systemClock,
        ...(this.options.windows ? { windows: this.options.windows } : {}),
        ...(this.options.inband ? { inband: this.options.inband } : {}),
        publish: (source, changes) => this.publish(source, changes),
        accepted: (source) => this.accepted.fire(source),
        promptChanged: (source) => this.touch(source, 'prompt'),
        log: this.options.log,
      }),
    );
  }

  private publish(pane: PaneRecord, changes: ChangeRecord[]): void {
    for (const record of changes) {
      this.seq += 1;
      const recomputed = this.recomputations.judge(pane, record);
      const change: AgentChange = { seq: this.seq, pane, record, info: this.info(pane, record.after), ...(recomputed ? { recomputed } : {}) };
      this.options.log.debug(
        { pane: pane.id, seq: this.seq, kind: record.kind, agent: record.after.agent, state: record.after.displayed },
        'agent changed',
      );
      this.changed.fire(change);
    }
  }
}

/** AgentInfo's `prompt`: present while the agent is blocked. */
function promptOf(agent: PaneAgent | undefined, view: AgentView): { prompt?: AgentPrompt } {
  if (view.state !== 'blocked' || agent === undefined) return {};
  const prompt = agent.prompt();
  return prompt === null ? {} : { prompt };
}
