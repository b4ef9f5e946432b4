import { isHostName } from '../../protocol/fleet-config.ts';

/** A target with the host it is on: `api@box1` is pane `api` on host `box1`. */
export interface HostTarget {
  target: string;
  /** Null when the target names no host. */
  host: string | null;
}

/**
 * Splits `TARGET@HOST` at its last `@`. Pane names and ids never hold `@`, and a workspace group
 * starts with it (`@W`), so an `@` after the first character always starts a host: `api@box1`,
 * `@build@box1` (workspace build on box1), `test-*@box1`. Anything else names no host.
 */
export function splitHostTarget(text: string): HostTarget {
  const at = text.lastIndexOf('@');
  if (at <= 0) return { target: text, host: null };
  const host = text.slice(at + 1);
  if (!isHostName(host)) return { target: text, host: null };
  return { target: text.slice(0, at), host };
}

/** `target@host`, as lists and events name a pane of the fleet. */
export function qualify(target: string, host: string): string {
  return `${target}@${host}`;
}
