import { resolve } from 'node:path';
import { CorralError, type CorralClient } from '../client/index.ts';
import type { PaneLifecycle } from '../protocol/methods/pane.ts';
import { PANE_SIZE } from '../protocol/pane-size.ts';
import { isGroupTarget } from '../protocol/pane-target.ts';
import { AGENT_STATES } from '../protocol/states.ts';
import { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS, waitForAgents, type WaitArgs } from './wait-tool.ts';
import { LIST_FLEET } from './fleet-tool.ts';
import { AGENT_USAGE } from './usage-tool.ts';
import type { LiveAttention } from './live-attention.ts';

type Args = Record<string, any>;

/** One MCP tool: its description is written for the model that calls it. */
export interface Tool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties?: boolean };
  run(client: CorralClient, args: Args, signal: AbortSignal, attention: LiveAttention): Promise<unknown>;
}

const target = {
  type: 'string',
  description:
    'The agent: its pane name (as given to spawn_agent) or pane id such as "w1:p2". Or a group: "@WORKSPACE" for every ' +
    'pane of that workspace, or a glob over names and ids ("test-*"); the tool then acts on each pane in turn and returns ' +
    '{results: [{id, result}]}, with {id, error} in place of result for a pane where it failed. On another machine of ' +
    'the fleet (see list_fleet): append @HOST, as "api@build".',
};
const oneTarget = {
  type: 'string',
  description: 'The agent: its pane name or pane id such as "w1:p2" (or a "@WORKSPACE" or glob that names exactly one pane); on another machine of the fleet, append @HOST ("api@build").',
};

/**
 * Runs `run` on the one pane a target names, or on each pane of a group (`states` keeps the group's
 * panes in those lifecycles): a group's result is {results}, each pane's error in its own entry, so one
 * agent that refuses never hides what the others did.
 */
async function eachTarget(client: CorralClient, name: string, run: (id: string) => Promise<unknown>, states?: readonly PaneLifecycle[]): Promise<unknown> {
  if (!isGroupTarget(name)) return run(name);
  const results: ({ id: string; result: unknown } | { id: string; error: string })[] = [];
  for (const id of await client.targets(name, states ? { states } : {})) {
    try {
      results.push({ id, result: await run(id) });
    } catch (error) {
      if (!(error instanceof CorralError)) throw error;
      results.push({ id, error: `${error.code}: ${error.message}` });
    }
  }
  return { results };
}
const states = { type: 'array', items: { type: 'string', enum: [...AGENT_STATES] } };

/** The daemon's agent_blocked names the CLI's command; a model answers with the answer_agent tool. */
function toolsBlocked(error: unknown): never {
  if (error instanceof CorralError && error.code === 'agent_blocked') {
    const { id } = error.details as { id?: string };
    throw new CorralError('agent_blocked', `the agent in pane ${id ?? '?'} waits on a decision: read it with read_agent, then answer it with the answer_agent tool`, error.details);
  }
  if (error instanceof CorralError && error.code === 'composer_not_empty' && error.details['cleared'] !== true) {
    const { id, draft } = error.details as { id?: string; draft?: string };
    throw new CorralError('composer_not_empty', `the input box of the agent in pane ${id ?? '?'} holds a draft (${JSON.stringify(draft ?? '')}); nothing was typed: call prompt_agent again with composer: "replace" or "append"`, error.details);
  }
  throw error;
}

export const TOOLS: Tool[] = [
  {
    name: 'list_agents',
    description:
      'List the coding agents Corral runs, with each one\'s state: "working" (busy), "blocked" (waiting for a decision: ' +
      'use answer_agent), "done" (finished and not looked at yet), "idle" (ready for a prompt) or "unknown". Returns ' +
      '{seq, agents: [{id, name, workspace, agent, state, title, prompt?}], workspaces}; a blocked agent has `prompt`: ' +
      '{id, kind, text, choices: [{id, label, keys, default}], freeText, note, complete, incomplete}, what it asks (complete: ' +
      'false when the dialog was not read whole, incomplete says why: look before answering such a prompt). Use it first to learn the names, and ' +
      'pass `seq` as sinceSeq to wait_for_agents when you prompt right after listing.',
    inputSchema: {
      type: 'object',
      properties: {
        workspace: { type: 'string', description: 'Only agents in this workspace.' },
        name: { type: 'string', description: 'Only agents whose name matches this glob (* and ?).' },
      },
      additionalProperties: false,
    },
    async run(client, args) {
      const filter = { ...(args.workspace ? { workspace: args.workspace } : {}), ...(args.name ? { name: args.name } : {}) };
      const list = await client.call('agent.list', Object.keys(filter).length > 0 ? { filter } : {});
      return {
        seq: list.seq,
        agents: list.agents.map((a) => ({ id: a.id, name: a.name, workspace: a.workspace, agent: a.agent, state: a.state, title: a.title, ...(a.prompt ? { prompt: a.prompt } : {}) })),
        workspaces: list.workspaces,
      };
    },
  },
  {
    name: 'read_agent',
    description:
      "Read what an agent shows: its current screen (default), or the last `lines` lines of its output with " +
      'source "scrollback". Returns {text}. Use it to see what a blocked agent asks before answering, or what a ' +
      'done agent reported. Reading never changes the agent\'s state. To wait and then read in one call, use ' +
      'wait_for_agents with read: true instead.',
    inputSchema: {
      type: 'object',
      properties: {
        target,
        source: { type: 'string', enum: ['screen', 'scrollback'], description: 'screen (default): what is visible now; scrollback: the output history.' },
        lines: { type: 'integer', minimum: 1, maximum: 100000, description: 'Keep only the last N lines with text (blank rows below the text are always left out).' },
      },
      required: ['target'],
      additionalProperties: false,
    },
    async run(client, args) {
      return eachTarget(client, args.target, async (id) => {
        const read = await client.call('agent.read', {
          target: id,
          trim: true,
          ...(args.source ? { source: args.source } : {}),
          ...(args.lines ? { lines: args.lines } : {}),
        });
        return { source: read.source, title: read.title, text: read.text };
      });
    },
  },
  {
    name: 'prompt_agent',
    description:
      'Type a prompt into an agent and submit it. An idle or done agent gets it at once: {delivered: true, seq}; pass that seq ' +
      'as sinceSeq to wait_for_agents so the wait ignores the idle before your prompt. A working agent gets it queued until it ' +
      'is next idle: {queued: true, position}; with now: true it is typed into the working agent at once instead. Refused with ' +
      'agent_blocked when the agent waits for a decision (use answer_agent), and with composer_not_empty (the draft in its data) ' +
      "when the agent's input box already holds text: pass composer: \"replace\" to empty it first or \"append\" to add to it. " +
      'A "@WORKSPACE" target prompts every running pane of the workspace with the same text.',
    inputSchema: {
      type: 'object',
      properties: {
        target,
        text: { type: 'string', description: 'The prompt, as you would type it.' },
        now: { type: 'boolean', description: 'Type it into a working agent at once instead of queuing it.' },
        composer: { type: 'string', enum: ['replace', 'append'], description: "What to do with a draft already in the agent's input box." },
      },
      required: ['target', 'text'],
      additionalProperties: false,
    },
    async run(client, args) {
      const prompt = { text: args.text, ...(args.now === true ? { queue: false } : {}), ...(args.composer !== undefined ? { composer: args.composer } : {}) };
      return eachTarget(client, args.target, (id) => client.call('agent.prompt', { target: id, ...prompt }).catch(toolsBlocked), ['running']);
    },
  },
  {
    name: 'answer_agent',
    description:
      'Answer a blocked agent (one waiting on a permission or a question). Take the prompt from list_agents or ' +
      'wait_for_agents (`prompt`): pass its id as promptId and the id of the choice you pick as choice ("yes"); for a ' +
      'free-text question (freeText) pass text instead; keys (named keys such as ["Escape"]) when no choice fits. The ' +
      'answer is typed only if that prompt is still on screen: otherwise it is refused with prompt_changed, whose data ' +
      'holds the prompt shown now, and nothing is typed. Calling again with the same promptId and choice types nothing ' +
      'twice. A choice the prompt does not offer is refused with choice_not_offered. Returns once the answered dialog is ' +
      'gone: {outcome: "left", state} when the agent left blocked, {outcome: "next", state: "blocked", prompt} when it asks ' +
      'a next question, {outcome: "pending", state} when that is not known yet (read the agent again).',
    inputSchema: {
      type: 'object',
      properties: {
        target: oneTarget,
        promptId: { type: 'string', description: 'The id of the prompt you answer (prompt.id).' },
        choice: { type: 'string', description: 'The id of the choice to pick (prompt.choices[].id).' },
        text: { type: 'string', description: 'The answer to a free-text question.' },
        keys: { type: 'array', items: { type: 'string' }, description: 'Named keys instead of a choice: Enter, Escape, Up, Down, Tab, C-c, or text.' },
      },
      required: ['target'],
      additionalProperties: false,
    },
    async run(client, args) {
      // An answer is a decision about one form: a group must name exactly one pane.
      const [id] = await client.targets(args.target, { one: 'answer_agent' });
      return client.call('agent.answer', {
        target: id!,
        ...(args.promptId !== undefined ? { promptId: args.promptId } : {}),
        ...(args.choice !== undefined ? { choice: args.choice } : {}),
        ...(args.text !== undefined ? { text: args.text } : {}),
        ...(args.keys !== undefined ? { keys: args.keys } : {}),
      });
    },
  },
  {
    name: 'spawn_agent',
    description:
      'Start a coding agent (for example command "claude", "codex" or "gemini") in a folder, in a pane named `name`. ' +
      'Returns the pane {id, name, workspace}. It takes a few seconds to start: call wait_for_agents with until ["idle"] ' +
      'before prompting it.',
    inputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The program to run, found on PATH.' },
        args: { type: 'array', items: { type: 'string' }, description: 'Its arguments.' },
        folder: {
          type: 'string',
          description: "The folder it works in: an absolute path, or one relative to this MCP server's folder (default: this server's folder, where you run).",
        },
        name: { type: 'string', description: 'A short unique name to refer to it later (letters, digits, . _ -).' },
        workspace: {
          type: 'string',
          description: 'A workspace to group it with others (created on first use; default "w1"). "@WORKSPACE" then names them all in the other tools.',
        },
        env: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description: 'Environment variables to set for it, such as {"ANTHROPIC_MODEL": "..."}, besides the base environment.',
        },
        cols: { type: 'integer', minimum: PANE_SIZE.cols.min, maximum: PANE_SIZE.cols.max, description: 'Terminal columns (default 120).' },
        rows: { type: 'integer', minimum: PANE_SIZE.rows.min, maximum: PANE_SIZE.rows.max, description: 'Terminal rows (default 32).' },
      },
      required: ['command'],
      additionalProperties: false,
    },
    async run(client, args) {
      const pane = await client.call('pane.spawn', {
        command: args.command,
        ...(args.args ? { args: args.args } : {}),
        // The server's own folder is the orchestrating agent's: what it means by "here" (docs/mcp.md).
        cwd: resolve(typeof args.folder === 'string' ? args.folder : '.'),
        ...(args.name ? { name: args.name } : {}),
        ...(args.workspace ? { workspace: args.workspace } : {}),
        ...(args.env ? { env: args.env } : {}),
        ...(args.cols !== undefined ? { cols: args.cols } : {}),
        ...(args.rows !== undefined ? { rows: args.rows } : {}),
      });
      return { id: pane.id, name: pane.name, workspace: pane.workspace, command: pane.command, cwd: pane.cwd };
    },
  },
  {
    name: 'explain_agent',
    description:
      "Explain why an agent has its state: which detection rule matched on its screen, or which hook report decided. " +
      'Use it when a state looks wrong to you. Returns the agent and the evidence.',
    inputSchema: { type: 'object', properties: { target }, required: ['target'], additionalProperties: false },
    async run(client, args) {
      return eachTarget(client, args.target, (id) => client.call('agent.explain', { target: id }));
    },
  },
  {
    name: 'wait_for_agents',
    description:
      'Wait, without polling, until one (mode "any", default) or all (mode "all") of the agents is in one of the states ' +
      '`until` (default idle, done or blocked), then return {outcome: "matched", matched, states, seq}. If it takes longer ' +
      `than timeoutSeconds (default ${DEFAULT_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS}) it returns {outcome: "timed_out", states}: ` +
      'call it again to keep waiting. outcome "gone" means an agent exited. After prompt_agent, pass its seq as ' +
      'sinceSeq. When a state is "blocked", the result has prompts: {name: prompt} (what it asks, its choices and id): ' +
      'answer it with answer_agent; then wait again with the returned seq. ' +
      'targets may hold "@WORKSPACE" or globs; allAgents: true waits on every agent Corral runs. With read: true the ' +
      'result also has screens: {name: screen text} of each matched agent, so you need no read_agent after it. A pane ' +
      'whose program is not a recognised agent is refused with no_agent unless allowUnknown: true.',
    inputSchema: {
      type: 'object',
      properties: {
        targets: {
          type: 'array',
          items: { type: 'string' },
          minItems: 1,
          maxItems: 64,
          description: 'Agent names, pane ids, "@WORKSPACE" (its agents) or globs over names ("test-*"). Leave out with allAgents.',
        },
        allAgents: { type: 'boolean', description: 'Wait on every agent Corral runs (besides any targets).' },
        read: { type: 'boolean', description: 'Also return the screen of each matched agent (screens), as read_agent would.' },
        allowUnknown: { type: 'boolean', description: 'Wait on panes with no recognised agent too, instead of failing with no_agent.' },
        until: { ...states, description: 'States that end the wait (default ["idle", "done", "blocked"]; "idle" also matches "done").' },
        mode: { type: 'string', enum: ['any', 'all'], description: 'any: the first agent that matches; all: every agent at once.' },
        sinceSeq: { type: 'integer', minimum: 0, description: 'Only count state changes after this seq (from prompt_agent, list_agents or a previous wait).' },
        timeoutSeconds: { type: 'number', minimum: 0, maximum: MAX_WAIT_SECONDS, description: `How long to wait (default ${DEFAULT_WAIT_SECONDS}).` },
      },
      additionalProperties: false,
    },
    async run(client, args, signal) {
      return waitForAgents(client.endpoint, args as WaitArgs, signal);
    },
  },
  {
    name: 'agents_needing_attention',
    description:
      'What needs you now, on this machine: needsYou lists every agent that is "blocked" (for as long as it is: answer it ' +
      'with answer_agent) or "done" and not yet looked at (read its work), [{id, name, agent, state, title, prompt?}]; ' +
      'items is the attention inbox, the reminders nobody has acknowledged yet, oldest first, one per agent (and one per ' +
      'budget crossed): [{id, pane: {id, name}, agent, state, message, title, ts}]. The inbox survives restarts of Corral. ' +
      'Answering an agent, or acknowledge_attention, clears its items; acknowledging changes no agent\'s state.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    async run(_client, _args, _signal, attention) {
      return attention.attention();
    },
  },
  {
    name: 'acknowledge_attention',
    description: 'Clear items of the attention inbox once you have dealt with them: ids from agents_needing_attention, or all: true. Returns {acknowledged: ids}.',
    inputSchema: {
      type: 'object',
      properties: {
        ids: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 1000, description: 'The item ids to clear.' },
        all: { type: 'boolean', description: 'Clear every item.' },
      },
      additionalProperties: false,
    },
    async run(client, args, _signal, attention) {
      const result = await client.call('inbox.ack', args.all === true ? { all: true } : { ids: args.ids ?? [] });
      await attention.settled(result.acknowledged);
      return result;
    },
  },
  {
    name: 'policy_decision',
    description:
      "What Corral's approval policy decided on an agent's prompt (a person's rules that answer some prompts by " +
      'themselves): {status: {active, mode, paused, rules}, check: {prompt, decision: {action: "allow"|"deny"|"ask", ' +
      'choice, rule, reason}} (what it would decide on the prompt shown now), last: the last decision it took in that ' +
      'pane}. Without target, the status only. You can read the policy, never change it; pause: true stops it answering ' +
      'anything (a kill switch only a person lifts, with corral policy resume).',
    inputSchema: {
      type: 'object',
      properties: { target: oneTarget, pause: { type: 'boolean', description: 'Pause the policy: no prompt is answered by it until a person resumes it.' } },
      additionalProperties: false,
    },
    async run(client, args) {
      const status = args.pause === true ? await client.call('policy.pause', {}) : await client.call('policy.status', {});
      if (typeof args.target !== 'string') return { status };
      const { prompt, decision, last } = await client.call('policy.check', { target: args.target });
      return { status, check: { prompt, decision }, last };
    },
  },
  LIST_FLEET,
  AGENT_USAGE,
];
