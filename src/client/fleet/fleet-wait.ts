import { CorralError } from '../../protocol/errors.ts';
import { LOCAL_HOST } from '../../protocol/fleet-config.ts';
import type { AgentWaitResult } from '../../protocol/methods/agent-wait.ts';
import type { AgentState } from '../../protocol/states.ts';
import { DEFAULT_RECONNECT_GRACE_MS } from '../backoff.ts';
import { waitCarryingOn, type AgentWaitParams } from '../carry-on-wait.ts';
import { ClientError } from '../connection.ts';
import { checkProtocol } from '../protocol-check.ts';
import { qualify, splitHostTarget } from './host-target.ts';
import type { Endpoint } from '../endpoint.ts';

/** `agent.wait` over the fleet: targets as `TARGET@HOST` (no host: this machine), `sinceSeq` per host. */
export type FleetWaitParams = Omit<AgentWaitParams, 'sinceSeq'> & { sinceSeq?: Record<string, number> };

/** As `AgentWaitResult`, with every target qualified by its host (`api@box1`) and a seq per host. */
export interface FleetWaitResult {
  matched: string[];
  states: Record<string, AgentState | 'gone'>;
  seq: Record<string, number>;
  elapsedMs: number;
  screens?: Record<string, string>;
}

export interface FleetWaitOptions {
  /** How long a host may stay away before the wait gives up on it with `daemon_unreachable` (default 60 s). */
  reconnectGraceMs?: number;
  signal?: AbortSignal;
}

/** The targets of each host, as that host's daemon is asked them. */
function byHost(params: FleetWaitParams, links: ReadonlyMap<string, { readonly endpoint: Endpoint }>): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  if (params.allAgents) for (const name of links.keys()) grouped.set(name, []);
  for (const text of params.targets ?? []) {
    const { target, host } = splitHostTarget(text);
    const name = host ?? LOCAL_HOST;
    if (!links.has(name)) throw new ClientError('host_not_found', `the wait names "${text}", but no host of the fleet is named "${name}" (hosts: ${[...links.keys()].join(', ')})`);
    grouped.set(name, [...(grouped.get(name) ?? []), target]);
  }
  return grouped;
}

function merge(parts: ReadonlyMap<string, Partial<AgentWaitResult>>, started: number): FleetWaitResult {
  const merged: FleetWaitResult = { matched: [], states: {}, seq: {}, elapsedMs: Math.round(performance.now() - started) };
  for (const [host, part] of parts) {
    merged.matched.push(...(part.matched ?? []).map((target) => qualify(target, host)));
    for (const [target, state] of Object.entries(part.states ?? {})) merged.states[qualify(target, host)] = state;
    if (part.seq !== undefined) merged.seq[host] = part.seq;
    for (const [target, screen] of Object.entries(part.screens ?? {})) (merged.screens ??= {})[qualify(target, host)] = screen;
  }
  return merged;
}

/**
 * One wait per host, each on a connection of its own that carries on through the host's drops (as
 * `CorralClient.wait` does), under one deadline. `any` ends at the first host that matches; `all`
 * when every host's targets all matched, each host judged at once on its own (hosts share no clock).
 * A host that answers with an error ends the whole wait with it; a timeout carries every host's part.
 */
export async function waitAcrossHosts(links: ReadonlyMap<string, { readonly endpoint: Endpoint }>, params: FleetWaitParams, options: FleetWaitOptions = {}): Promise<FleetWaitResult> {
  const started = performance.now();
  const grouped = byHost(params, links);
  if (grouped.size === 0) throw new CorralError('invalid_params', 'the wait names no target: give targets, or allAgents', { field: 'targets' });
  const abort = new AbortController();
  const cancel = () => abort.abort();
  options.signal?.addEventListener('abort', cancel, { once: true });
  const { sinceSeq, targets: _targets, ...shared } = params;
  const parts = new Map<string, Partial<AgentWaitResult>>();
  try {
    await new Promise<void>((resolve, reject) => {
      let pending = grouped.size;
      for (const [host, targets] of grouped) {
        const link = links.get(host)!;
        const asked = { ...shared, ...(targets.length > 0 ? { targets } : {}), ...(sinceSeq?.[host] !== undefined ? { sinceSeq: sinceSeq[host] } : {}) };
        waitCarryingOn(link.endpoint, asked, {
          graceMs: options.reconnectGraceMs ?? DEFAULT_RECONNECT_GRACE_MS,
          signal: abort.signal,
          prepare: (connection) => checkProtocol(connection, { strict: false, warn: () => {} }),
        }).then(
          (result) => {
            parts.set(host, result);
            pending -= 1;
            if (params.mode !== 'all' || pending === 0) resolve();
          },
          (error: unknown) => {
            if (error instanceof CorralError && error.code === 'timeout') parts.set(host, error.details as Partial<AgentWaitResult>);
            pending -= 1;
            // Under one deadline every host times out together: the last one says so for all.
            if (error instanceof CorralError && error.code === 'timeout' && pending > 0) return;
            if (error instanceof ClientError || error instanceof CorralError) {
              const onHost = error instanceof CorralError ? new CorralError(error.code, `host ${host}: ${error.message}`, error.details) : new ClientError(error.code, `host ${host}: ${error.message}`);
              reject(onHost);
            } else reject(error);
          },
        );
      }
    });
    return merge(parts, started);
  } catch (error) {
    if (error instanceof CorralError && error.code === 'timeout') throw new CorralError('timeout', error.message, { ...merge(parts, started) });
    throw error;
  } finally {
    abort.abort();
    options.signal?.removeEventListener('abort', cancel);
  }
}
