// An orchestrator as its users write one, using only `corral/client`: it starts three agents in a
// workspace, prompts each with its task, answers any that stops for a permission (approving it),
// and waits until all three are done. Run it beside a daemon (`corral daemon`):
//
//   node --import tsx docs/examples/orchestrator.ts            # three Claude Code agents
//   AGENT_COMMAND='["codex"]' node --import tsx docs/examples/orchestrator.ts
//
// AGENT_COMMAND (a JSON array: command, then args) and TASKS_JSON ({"name": "prompt", ...}) change
// what runs; the test of this example sets them to drive scripted fake agents.
import { connect, type AgentState } from 'corral/client';

const [command, ...args] = JSON.parse(process.env.AGENT_COMMAND ?? '["claude"]') as string[];
const tasks: Record<string, string> = JSON.parse(
  process.env.TASKS_JSON ??
    JSON.stringify({
      api: 'Add input validation to the /users endpoint and its tests.',
      web: 'Show a spinner while the user list loads.',
      docs: 'Document the /users endpoint in docs/api.md.',
    }),
);
const cwd = process.env.TASK_DIR ?? process.cwd();

const client = await connect();
try {
  const names = Object.keys(tasks);
  for (const name of names) {
    // One workspace for the run: `corral agent list --workspace orchestra` and `@orchestra` name them all.
    await client.call('pane.spawn', { command: command!, args, name, cwd, workspace: 'orchestra' });
  }
  // Wait for every agent to be ready for input: `all` ends when each is idle at the same moment.
  await client.call('agent.wait', { targets: names, until: ['idle'], mode: 'all', timeoutMs: 120_000 });

  // Take the seq before prompting: a wait with sinceSeq only counts turns after it, never the idle before.
  let { seq } = await client.call('agent.list');
  for (const name of names) await client.call('agent.prompt', { target: name, text: tasks[name]! });

  const remaining = new Set(names);
  const finished: Record<string, AgentState> = {};
  while (remaining.size > 0) {
    const woke = await client.call('agent.wait', {
      targets: [...remaining],
      until: ['done', 'blocked'],
      sinceSeq: seq,
      timeoutMs: 30 * 60_000,
    });
    seq = woke.seq;
    for (const name of woke.matched) {
      if (woke.states[name] === 'blocked') {
        console.log(`${name}: blocked, approving`);
        await client.call('agent.answer', { target: name, choice: 1 });
      } else {
        console.log(`${name}: done`);
        finished[name] = woke.states[name] as AgentState;
        remaining.delete(name);
      }
    }
  }
  console.log(JSON.stringify({ finished }));
} finally {
  client.close();
}
