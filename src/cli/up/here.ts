import { resolve } from 'node:path';
import { AGENT_PROMPT } from '../../protocol/methods/agent-act.ts';
import { AGENT_WAIT } from '../../protocol/methods/agent-wait.ts';
import { PANE_GET, PANE_KILL, PANE_LIST, PANE_RESPAWN, PANE_SPAWN, type PaneInfo } from '../../protocol/methods/pane.ts';
import type { AgentState } from '../../protocol/states.ts';
import { withDaemon, type DaemonConnection } from '../with-daemon.ts';
import { differences, type ResolvedLaunch } from './compare.ts';
import type { DeclaredAgent } from './fleet-file.ts';
import { errorOf, type AgentOutcome } from './outcome.ts';
import { makeWorktree, planWorktree, type WorktreePlan } from './worktree.ts';

export interface UpOptions {
  /** Replace an agent whose pane differs from the file. */
  recreate: boolean;
  /** Return once every agent is in this state (`idle` also matches `done`). */
  wait: AgentState | null;
  /** Bounds each wait: for an agent's first idle before its prompt, and `wait`. */
  timeoutMs?: number;
}

/** One agent on its way: what the file says, where it runs, and what was done. */
interface Step {
  agent: DeclaredAgent;
  launch: ResolvedLaunch | null;
  worktree: WorktreePlan | null;
  outcome: AgentOutcome;
  /** Set once its prompt was typed: the seq just before, so a wait counts the turn it started. */
  promptSeq?: number;
}

/**
 * `corral up` for the agents of this daemon: each one absent is started, one running as declared is
 * left alone, one stopped (exited, lost) as declared is started again, and one that differs is
 * replaced only with `recreate`. Then the prompts of the agents started now are typed at their first
 * idle, and with `wait` every agent is waited on. One agent's failure is its outcome; the others go on.
 */
export async function upHere(socket: string, dir: string, agents: DeclaredAgent[], options: UpOptions): Promise<AgentOutcome[]> {
  const steps: Step[] = [];
  for (const agent of agents) steps.push(await resolveStep(agent, dir));
  await withDaemon(socket, async (client) => {
    const panes = new Map((await client.call(PANE_LIST, {})).panes.filter((pane) => pane.name !== null).map((pane) => [pane.name!, pane]));
    for (const step of steps) if (step.launch) await bringUp(client, step, step.launch, panes.get(step.agent.name), options);
    await Promise.all(steps.map((step) => promptOnce(client, step, options)));
    if (options.wait !== null) await Promise.all(steps.map((step) => waitFor(client, step, options.wait!, options)));
  });
  return steps.map((step) => step.outcome);
}

/** `corral down` for the agents of this daemon: each one's pane, found by its name, is ended; nothing else is touched. */
export async function downHere(socket: string, agents: DeclaredAgent[]): Promise<AgentOutcome[]> {
  return withDaemon(socket, async (client) => {
    const panes = new Map((await client.call(PANE_LIST, {})).panes.filter((pane) => pane.name !== null).map((pane) => [pane.name!, pane]));
    const outcomes: AgentOutcome[] = [];
    for (const agent of agents) {
      const pane = panes.get(agent.name);
      const outcome: AgentOutcome = { name: agent.name, host: null, action: pane ? 'ended' : 'absent', pane: pane?.id ?? null };
      if (pane) await client.call(PANE_KILL, { target: pane.id }).catch((error: unknown) => Object.assign(outcome, { action: 'failed', error: errorOf(error) }));
      outcomes.push(outcome);
    }
    return outcomes;
  });
}

async function resolveStep(agent: DeclaredAgent, dir: string): Promise<Step> {
  const outcome: AgentOutcome = { name: agent.name, host: null, action: 'failed', pane: null };
  try {
    const base = resolve(dir, agent.cwd ?? '.');
    const worktree = agent.worktree !== undefined ? await planWorktree(base, agent.name, agent.worktree) : null;
    const [command, ...args] = agent.command;
    const launch: ResolvedLaunch = { name: agent.name, command: command!, args, cwd: worktree?.cwd ?? base, env: agent.env, ...(agent.workspace ? { workspace: agent.workspace } : {}) };
    return { agent, launch, worktree, outcome };
  } catch (error) {
    outcome.error = errorOf(error);
    return { agent, launch: null, worktree: null, outcome };
  }
}

async function bringUp(client: DaemonConnection, step: Step, launch: ResolvedLaunch, pane: PaneInfo | undefined, options: UpOptions): Promise<void> {
  const { outcome } = step;
  try {
    if (pane === undefined) return await start(client, step, launch, 'started');
    outcome.pane = pane.id;
    const found = differences(launch, await client.call(PANE_GET, { target: pane.id }));
    if (found.length > 0) {
      outcome.differences = found;
      if (!options.recreate) return void (outcome.action = 'differs');
      await client.call(PANE_KILL, { target: pane.id });
      return await start(client, step, launch, 'replaced');
    }
    if (pane.state === 'running') return void (outcome.action = 'unchanged');
    // Stopped as declared: started again in the same pane, resuming the agent's conversation where it can.
    await client.call(PANE_RESPAWN, { target: pane.id });
    outcome.action = 'restarted';
  } catch (error) {
    outcome.action = 'failed';
    outcome.error = errorOf(error);
  }
}

async function start(client: DaemonConnection, step: Step, launch: ResolvedLaunch, action: 'started' | 'replaced'): Promise<void> {
  if (step.worktree) step.outcome.worktree = { path: step.worktree.path, made: (await makeWorktree(step.worktree)) === 'made' };
  const info = await client.call(PANE_SPAWN, {
    command: launch.command,
    args: launch.args,
    name: launch.name,
    cwd: launch.cwd,
    env: launch.env,
    ...(launch.workspace ? { workspace: launch.workspace } : {}),
    // As with `corral pane spawn`: the command is looked up in this shell's PATH unless the file sets one.
    caller: { ...(process.env.PATH !== undefined ? { path: process.env.PATH } : {}), cwd: launch.cwd },
  });
  Object.assign(step.outcome, { action, pane: info.id });
}

/**
 * Types the prompt of an agent started by this run, once it is first idle. An agent that asks
 * something first (a folder trust dialog) is not typed into: the outcome says to answer it.
 */
async function promptOnce(client: DaemonConnection, step: Step, options: UpOptions): Promise<void> {
  const { outcome, agent } = step;
  if (agent.prompt === undefined || outcome.pane === null || (outcome.action !== 'started' && outcome.action !== 'replaced')) return;
  try {
    const ready = await client.call(AGENT_WAIT, { targets: [outcome.pane], until: ['idle', 'blocked'], allowUnknown: true, ...timeout(options) });
    if (ready.states[outcome.pane] === 'blocked') {
      outcome.error = { code: 'agent_blocked', message: `${agent.name} asks something before its prompt could be typed: answer it (corral agent answer ${agent.name}), then corral agent prompt ${agent.name}` };
      return;
    }
    const typed = await client.call(AGENT_PROMPT, { target: outcome.pane, text: agent.prompt });
    if ('delivered' in typed) step.promptSeq = typed.seq;
    outcome.prompted = true;
  } catch (error) {
    outcome.error = errorOf(error);
  }
}

/**
 * Waits until the agent is in `state`. A blocked agent will not leave its question by itself, so it
 * ends the wait too (at once when it is blocked already), failing its outcome with `agent_blocked`.
 */
async function waitFor(client: DaemonConnection, step: Step, state: AgentState, options: UpOptions): Promise<void> {
  const { outcome, agent } = step;
  if (outcome.pane === null || outcome.error !== undefined || outcome.action === 'failed') return;
  try {
    const since = step.promptSeq !== undefined ? { sinceSeq: step.promptSeq } : {};
    const until: AgentState[] = state === 'blocked' ? [state] : [state, 'blocked'];
    const result = await client.call(AGENT_WAIT, { targets: [outcome.pane], until, allowUnknown: true, ...since, ...timeout(options) });
    outcome.state = result.states[outcome.pane] ?? state;
    if (outcome.state === 'blocked' && state !== 'blocked') {
      outcome.error = { code: 'agent_blocked', message: `${agent.name} is blocked on a question and will not be ${state} until it is answered: corral agent answer ${agent.name}` };
    }
  } catch (error) {
    outcome.error = errorOf(error);
  }
}

function timeout(options: UpOptions): { timeoutMs?: number } {
  return options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {};
}
