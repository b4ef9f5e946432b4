import { Emitter } from '../base/emitter.ts';
import type { LeaseInfo } from './wire.ts';

/** Whoever may hold a lease: one page's socket. */
export interface LeaseHolder {
  readonly label: string;
}

/**
 * The control leases of every pane: at most one writer per pane, known to every viewer, given back
 * on release or when its socket closes. Viewing needs no lease; typing and resizing do.
 */
export class Leases {
  private readonly held = new Map<string, { holder: LeaseHolder; since: number }>();
  private readonly changed = new Emitter<string>();
  readonly onChange = this.changed.event;

  /** Takes the pane's lease for `holder`; false when another holds it. */
  take(id: string, holder: LeaseHolder): boolean {
    const current = this.held.get(id);
    if (current !== undefined) return current.holder === holder;
    this.held.set(id, { holder, since: Date.now() });
    this.changed.fire(id);
    return true;
  }

  release(id: string, holder: LeaseHolder): void {
    if (this.held.get(id)?.holder !== holder) return;
    this.held.delete(id);
    this.changed.fire(id);
  }

  /** Gives back every lease of a holder whose socket closed. */
  releaseAll(holder: LeaseHolder): void {
    for (const [id, lease] of this.held) if (lease.holder === holder) this.release(id, holder);
  }

  holds(id: string, holder: LeaseHolder): boolean {
    return this.held.get(id)?.holder === holder;
  }

  info(id: string, viewer: LeaseHolder): LeaseInfo {
    const lease = this.held.get(id);
    return { id, holder: lease?.holder.label ?? null, mine: lease?.holder === viewer, since: lease?.since ?? null };
  }

  all(viewer: LeaseHolder): LeaseInfo[] {
    return [...this.held.keys()].map((id) => this.info(id, viewer));
  }
}
