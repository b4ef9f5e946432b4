import type { Verdict } from '../../src/detect/types.ts';
import type { RawState } from '../../src/protocol/states.ts';
import { PaneArbiter, type ArbiterWindows, type Clock, type LineageEntry, type ProcessObservation, type ProcessTree } from '../../src/arbiter/index.ts';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  #now: number;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }
}

/** A pane's process tree as plain data: parents, which processes are agents, which are alive. */
export class TreeModel implements ProcessTree {
  readonly #parents = new Map<number, number>();
  readonly #agents = new Map<number, string>();
  readonly #hints = new Map<number, string>();
  readonly #alive = new Set<number>();
  readonly root: number;

  constructor(root = 100) {
    this.root = root;
    this.#alive.add(root);
  }

  spawn(pid: number, parent: number, agent?: string, hinted?: string): number {
    this.#parents.set(pid, parent);
    this.#alive.add(pid);
    if (agent !== undefined) this.#agents.set(pid, agent);
    if (hinted !== undefined) this.#hints.set(pid, hinted);
    return pid;
  }

  kill(pid: number): void {
    this.#alive.delete(pid);
  }

  lineage(pid: number): LineageEntry[] | null {
    const chain: LineageEntry[] = [];
    for (let at: number | undefined = pid; at !== undefined; at = this.#parents.get(at)) {
      if (!this.#alive.has(at)) return null;
      chain.push({ pid: at, agent: this.#agents.get(at) ?? null, hinted: this.#hints.get(at) ?? null });
      if (at === this.root) return chain;
    }
    return null;
  }
}

export function verdict(agent: string, state: RawState, ruleId: string | null, extra: Partial<Verdict> = {}): Verdict {
  return {
    agent,
    state,
    rule: ruleId === null ? null : { id: ruleId, priority: 500, region: 'whole_recent' },
    fallbackReason: ruleId === null ? 'default_known_agent_idle_fallback' : null,
    visible: { idle: false, blocker: false, working: false },
    skipStateUpdate: false,
    recheckAt: null,
    manifest: { id: agent, version: '1.0.0', source: 'bundled' },
    ...extra,
  };
}

export function skipVerdict(agent: string): Verdict {
  return verdict(agent, 'unknown', 'transcript_viewer', { skipStateUpdate: true });
}

export function agentRunning(agent: string, agentPid: number, extra: Partial<ProcessObservation> = {}): ProcessObservation {
  return { observable: true, leaderPid: agentPid, agent, agentPid, ...extra };
}

export function shellOnly(leaderPid: number): ProcessObservation {
  return { observable: true, leaderPid, agent: null, agentPid: null };
}

export const UNOBSERVABLE: ProcessObservation = { observable: false, leaderPid: null, agent: null, agentPid: null };

/** A pane with a shell (pid 100) in a fresh tree, and an arbiter on a manual clock. */
export function pane(windows: Partial<ArbiterWindows> = {}): { arbiter: PaneArbiter; clock: ManualClock; tree: TreeModel } {
  const clock = new ManualClock();
  const tree = new TreeModel(100);
  const arbiter = new PaneArbiter({ clock, tree, windows });
  arbiter.observeProcess(shellOnly(100));
  return { arbiter, clock, tree };
}

/** A pane where `agent` runs as pid `agentPid` under the shell, with a hook child `hookPid`. */
export function paneWithAgent(agent = 'claude', agentPid = 200, hookPid = 201, windows: Partial<ArbiterWindows> = {}) {
  const made = pane(windows);
  made.tree.spawn(agentPid, 100, agent);
  made.tree.spawn(hookPid, agentPid);
  made.arbiter.observeProcess(agentRunning(agent, agentPid));
  return { ...made, agentPid, hookPid };
}

export function userVar(value: string, name = 'CORRAL_AGENT') {
  return { kind: 'userVar' as const, name, value };
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
