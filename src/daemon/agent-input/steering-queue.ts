import { CorralError } from '../../protocol/errors.ts';
import type { QueuedPrompt } from '../../protocol/methods/agent-act.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import type { AgentChange, AgentService } from '../agents/agent-service.ts';
import type { Logger } from '../logger.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import { isCancelInput } from './typing.ts';

/** How long a delivered prompt may take to set the agent working before the next one may go anyway. */
export const DELIVERY_GRACE_MS = 5000;

/** How often a queued prompt looks again at an input box that holds a draft it was not asked about. */
const DRAFT_RECHECK_MS = 1000;

/** Most prompts one pane may hold waiting (a named limit on socket input). */
const MAX_QUEUED_PROMPTS = 256;

type ClearReason = 'cancel' | 'released' | 'exited' | 'removed' | 'request';

interface SteeringQueuesDeps {
  registry: PaneRegistry;
  agents: AgentService;
  /** Types one prompt into the pane (paste, pause, Enter). */
  type: (pane: PaneRecord, prompt: QueuedPrompt) => Promise<void>;
  log: Logger;
  graceMs?: number;
  /** Whether a spent budget holds the pane's queue: nothing queued is typed until it is let go (`resume`). */
  held?: (paneId: string) => boolean;
}

/** One pane's queue: what waits, and whether the last delivered prompt has set the agent working yet. */
interface PaneQueue {
  readonly pane: PaneRecord;
  prompts: QueuedPrompt[];
  delivering: boolean;
  awaitingWork: boolean;
  grace: NodeJS.Timeout | null;
  /** Set while the next prompt waits for a draft in the input box to go (composer_not_empty). */
  draftRecheck: NodeJS.Timeout | null;
}

/**
 * Each pane's steering queue (seed 002): prompts sent while the agent works wait here (`agent.prompt`
 * queues by default) and are typed one at a time, each when the agent is next idle after the previous
 * one made it work, and its input box holds no draft the prompt was not asked to replace or append to. The count is what `AgentInfo.queued` shows; every change of it republishes the pane's info
 * (`agents.touch`). A cancel sent through Corral, the agent's release and the pane's exit empty it,
 * so a stale count never lingers.
 */
export class SteeringQueues implements Disposable {
  private readonly queues = new Map<string, PaneQueue>();
  private readonly subscriptions = new DisposableStore();
  private readonly touching = new Set<PaneRecord>();
  private disposed = false;

  constructor(private readonly deps: SteeringQueuesDeps) {
    this.subscriptions.add(deps.agents.onChange((change) => this.observe(change)));
    this.subscriptions.add(deps.registry.onExited((pane) => this.clear(pane.id, 'exited')));
    this.subscriptions.add(deps.registry.onRemoved((info) => this.clear(info.id, 'removed')));
  }

  size(paneId: string): number {
    return this.queues.get(paneId)?.prompts.length ?? 0;
  }

  /** Bytes of the prompts waiting for the pane, as they will be typed (UTF-8, paste marks aside). */
  queuedBytes(paneId: string): number {
    let total = 0;
    for (const prompt of this.queues.get(paneId)?.prompts ?? []) total += Buffer.byteLength(prompt.text) + (prompt.submit ? 1 : 0);
    return total;
  }

  list(paneId: string): QueuedPrompt[] {
    return (this.queues.get(paneId)?.prompts ?? []).map((prompt) => ({ ...prompt }));
  }

  /**
   * Whether a queued prompt must wait rather than be typed now: the agent works, prompts wait before
   * it, or the last delivered one has not yet set the agent working.
   */
  mustWait(pane: PaneRecord, state: string): boolean {
    const queue = this.queues.get(pane.id);
    return state === 'working' || (queue !== undefined && (queue.prompts.length > 0 || queue.delivering || queue.awaitingWork));
  }

  /** Adds a prompt at the end; answers its 1-based position. */
  enqueue(pane: PaneRecord, prompt: Omit<QueuedPrompt, 'queuedAt'>): number {
    const queue = this.queueOf(pane);
    if (queue.prompts.length >= MAX_QUEUED_PROMPTS) {
      throw new CorralError('invalid_params', `pane ${pane.label()} already holds ${MAX_QUEUED_PROMPTS} queued prompts; wait or clear them`, {
        field: 'queue',
      });
    }
    queue.prompts.push({ ...prompt, queuedAt: Date.now() });
    this.changed(pane);
    this.deliverSoon(queue);
    return queue.prompts.length;
  }

  /** Empties the pane's queue; answers how many prompts were dropped. */
  clear(paneId: string, reason: ClearReason): number {
    const queue = this.queues.get(paneId);
    if (!queue) return 0;
    const dropped = queue.prompts.length;
    this.forget(queue);
    if (dropped > 0) {
      this.deps.log.info({ pane: paneId, dropped, reason }, 'steering queue cleared');
      if (reason !== 'removed') this.changed(queue.pane);
    }
    return dropped;
  }

  /** The pane's hold by a budget ended: what waits is typed as the agent is next idle. */
  resume(paneId: string): void {
    const queue = this.queues.get(paneId);
    if (queue) this.deliverSoon(queue);
  }

  /** Input sent to the pane through `pane.send`: Escape or C-c cancels the run, and the queue goes with it. */
  sent(pane: PaneRecord, text: string | undefined, keys: readonly string[] | undefined): void {
    if (isCancelInput(text, keys)) this.clear(pane.id, 'cancel');
  }

  dispose(): void {
    this.disposed = true;
    this.subscriptions.dispose();
    for (const queue of [...this.queues.values()]) this.forget(queue);
  }

  private queueOf(pane: PaneRecord): PaneQueue {
    let queue = this.queues.get(pane.id);
    if (!queue) {
      queue = { pane, prompts: [], delivering: false, awaitingWork: false, grace: null, draftRecheck: null };
      this.queues.set(pane.id, queue);
    }
    return queue;
  }

  private forget(queue: PaneQueue): void {
    if (queue.grace) clearTimeout(queue.grace);
    if (queue.draftRecheck) clearTimeout(queue.draftRecheck);
    queue.grace = null;
    queue.draftRecheck = null;
    queue.prompts = [];
    if (this.queues.get(queue.pane.id) === queue) this.queues.delete(queue.pane.id);
  }

  private observe(change: AgentChange): void {
    if (change.extrasOnly) return;
    const queue = this.queues.get(change.pane.id);
    if (!queue) return;
    if (change.record.kind === 'released') {
      this.clear(change.pane.id, 'released');
      return;
    }
    const state = change.record.after.state;
    if (state === 'working' && queue.awaitingWork) {
      queue.awaitingWork = false;
      if (queue.grace) clearTimeout(queue.grace);
      queue.grace = null;
      if (queue.prompts.length === 0 && !queue.delivering) this.forget(queue);
    } else if (state === 'idle') {
      this.deliverSoon(queue);
    }
  }

  /** Delivery runs outside the change listener, so that typing and re-reading never nest in a publish. */
  private deliverSoon(queue: PaneQueue): void {
    setImmediate(() => void this.deliverNext(queue));
  }

  private async deliverNext(queue: PaneQueue): Promise<void> {
    if (this.disposed || this.queues.get(queue.pane.id) !== queue) return;
    if (queue.prompts.length === 0 || queue.delivering || queue.awaitingWork || queue.draftRecheck) return;
    const { pane } = queue;
    if (pane.lifecycle !== 'running') return void this.clear(pane.id, 'exited');
    if (this.deps.held?.(pane.id)) return; // a spent budget: `resume` brings it back here
    const view = this.deps.agents.of(pane).refresh();
    if (view.state !== 'idle') return; // working or blocked: the next idle change brings it back here
    const prompt = queue.prompts.shift()!;
    queue.delivering = true;
    this.changed(pane);
    try {
      await this.deps.type(pane, prompt);
    } catch (error) {
      if (isDraftInTheWay(error)) {
        // Nothing was typed: the prompt keeps its place until the draft is gone (or it was asked to replace it).
        queue.delivering = false;
        queue.prompts.unshift(prompt);
        this.changed(pane);
        queue.draftRecheck = setTimeout(() => {
          queue.draftRecheck = null;
          void this.deliverNext(queue);
        }, DRAFT_RECHECK_MS);
        queue.draftRecheck.unref();
        return;
      }
      pane.warnings.error({ err: error }, 'steering prompt delivery failed');
    } finally {
      queue.delivering = false;
    }
    if (this.queues.get(pane.id) !== queue) return;
    queue.awaitingWork = true;
    queue.grace = setTimeout(() => {
      queue.grace = null;
      queue.awaitingWork = false;
      if (queue.prompts.length === 0) this.forget(queue);
      else void this.deliverNext(queue);
    }, this.deps.graceMs ?? DELIVERY_GRACE_MS);
    queue.grace.unref();
  }

  /** Republishes the pane's info once the current publish has finished, so listeners see changes in order. */
  private changed(pane: PaneRecord): void {
    if (this.touching.has(pane)) return;
    this.touching.add(pane);
    queueMicrotask(() => {
      this.touching.delete(pane);
      if (!this.disposed) this.deps.agents.touch(pane);
    });
  }
}

/**
 * A draft the prompt was not asked about: it waits. A box that did not empty after its clear keys is
 * not retried: pressing them again on a box the reader misjudges could do what they do on an empty one.
 */
function isDraftInTheWay(error: unknown): boolean {
  return error instanceof CorralError && error.code === 'composer_not_empty' && error.details['cleared'] !== true;
}
