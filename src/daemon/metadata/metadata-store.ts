import { DEFAULT_METADATA_TTL_MS, type MetadataEntry, type PaneMetadata } from '../../protocol/methods/metadata.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import type { AgentService } from '../agents/agent-service.ts';
import { Emitter } from '../../base/emitter.ts';
import type { Logger } from '../logger.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';

interface MetadataReport {
  source: string;
  title?: string;
  displayAgent?: string;
  stateLabel?: string;
  tokens?: number;
  ttlMs?: number;
}

const FIELDS = ['title', 'displayAgent', 'stateLabel', 'tokens'] as const;

/**
 * Sources one pane keeps at once; a report from one more replaces the source that reported least
 * recently. Each source is small by its params (src/protocol/methods/metadata.ts: a source name of 64
 * characters, a title of 256, a display agent and a state label of 64), so a pane's metadata, every
 * `metadata.changed` event and the `metadata` of each `agent.get` stay within a few KiB.
 */
export const MAX_METADATA_SOURCES = 16;

/** One pane's reports by source, and the one timer set on the earliest expiry among them. */
interface PaneEntries {
  sources: Map<string, MetadataEntry>;
  timer: NodeJS.Timeout | null;
}

/**
 * Display-only metadata per pane (`pane.reportMetadata`). It feeds `AgentInfo.metadata` and nothing
 * else: never the state, waits or notifications. Each source's report replaces that source's last
 * one; a report with no display field removes the source. A report expires after its TTL, by one timer
 * per pane on the earliest expiry, never by polling. The agent's release and the pane's exit drop all.
 * `onChange` tells of every change, with the merged metadata or null when none is left.
 */
export class MetadataStore implements Disposable {
  private readonly panes = new Map<string, PaneEntries>();
  private readonly changed: Emitter<{ paneId: string; metadata: PaneMetadata | null }>;
  private readonly subscriptions = new DisposableStore();

  constructor(deps: { registry: PaneRegistry; agents: AgentService; log: Logger }) {
    this.changed = new Emitter((error) => deps.log.error({ err: error }, 'metadata listener failed'));
    this.subscriptions.add(
      deps.agents.onChange((change) => {
        if (change.record.kind === 'released') this.drop(change.pane.id);
      }),
    );
    this.subscriptions.add(deps.registry.onExited((pane) => this.drop(pane.id)));
    this.subscriptions.add(deps.registry.onRemoved((info) => this.drop(info.id)));
  }

  onChange(listener: (paneId: string, metadata: PaneMetadata | null) => void): Disposable {
    return this.changed.event(({ paneId, metadata }) => listener(paneId, metadata));
  }

  /** The merged metadata: each field from the latest report that set it; null when no source is live. */
  get(paneId: string, now = Date.now()): PaneMetadata | null {
    const entries = this.panes.get(paneId);
    if (!entries) return null;
    const live = [...entries.sources].filter(([, entry]) => entry.expiresAt > now).sort(([, a], [, b]) => a.reportedAt - b.reportedAt);
    if (live.length === 0) return null;
    const merged: PaneMetadata = { sources: {} };
    for (const [source, entry] of live) {
      merged.sources[source] = { ...entry };
      for (const field of FIELDS) if (entry[field] !== undefined) (merged as Record<string, unknown>)[field] = entry[field];
    }
    return merged;
  }

  report(paneId: string, report: MetadataReport, now = Date.now()): PaneMetadata | null {
    const entries = this.panes.get(paneId) ?? { sources: new Map<string, MetadataEntry>(), timer: null };
    this.panes.set(paneId, entries);
    entries.sources.delete(report.source); // re-inserted last, so a later report wins a field over an earlier one
    const entry: MetadataEntry = { reportedAt: now, expiresAt: now + (report.ttlMs ?? DEFAULT_METADATA_TTL_MS) };
    for (const field of FIELDS) if (report[field] !== undefined) (entry as unknown as Record<string, unknown>)[field] = report[field];
    if (FIELDS.some((field) => report[field] !== undefined)) {
      entries.sources.set(report.source, entry);
      if (entries.sources.size > MAX_METADATA_SOURCES) entries.sources.delete(entries.sources.keys().next().value as string);
    }
    this.settle(paneId, entries, now, true);
    return this.get(paneId, now);
  }

  dispose(): void {
    this.subscriptions.dispose();
    for (const entries of this.panes.values()) if (entries.timer) clearTimeout(entries.timer);
    this.panes.clear();
    this.changed.dispose();
  }

  /** Drops expired sources, publishes the result and arms the pane's timer on the next expiry. */
  private settle(paneId: string, entries: PaneEntries, now: number, reported: boolean): void {
    let expired = 0;
    for (const [source, entry] of entries.sources) {
      if (entry.expiresAt <= now) {
        entries.sources.delete(source);
        expired += 1;
      }
    }
    if (entries.timer) clearTimeout(entries.timer);
    entries.timer = null;
    if (entries.sources.size === 0) this.panes.delete(paneId);
    else {
      const next = Math.min(...[...entries.sources.values()].map((entry) => entry.expiresAt));
      entries.timer = setTimeout(() => this.settle(paneId, entries, Date.now(), false), Math.max(0, next - now));
      entries.timer.unref();
    }
    if (reported || expired > 0) this.changed.fire({ paneId, metadata: this.get(paneId, now) });
  }

  private drop(paneId: string): void {
    const entries = this.panes.get(paneId);
    if (!entries) return;
    if (entries.timer) clearTimeout(entries.timer);
    this.panes.delete(paneId);
    this.changed.fire({ paneId, metadata: null });
  }
}
