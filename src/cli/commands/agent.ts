import type { Command } from 'commander';
import { AGENT_EXPLAIN, AGENT_GET, type AgentInfo } from '../../protocol/methods/agent.ts';
import { forEachTarget } from '../targets.ts';
import { globalsOf } from '../globals.ts';
import { printFields, printText } from '../output.ts';
import { UsageError } from '../print-error.ts';
import { formatAge } from './format.ts';
import { choicesLine, questionLine } from './prompt-format.ts';
import { POLICY_LOG, type PolicyDecision } from '../../protocol/methods/policy.ts';
import { decisionLine } from './policy-format.ts';

/** The agent group; other agent commands register on the Command this returns. */
export function registerAgentCommands(program: Command): Command {
  const agent = program.command('agent').description('agents in panes: state, explain, reports');

  agent
    .command('get')
    .description("one pane's agent: identity, state, seen and what decided")
    .argument('<target>', 'pane id or name, @WORKSPACE or a pattern (each pane in turn)')
    .action(async (target: string, _options, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      await forEachTarget(daemon, target, json, (client, id) => client.call(AGENT_GET, { target: id }), (info) => printFields(agentFields(info)));
    });

  agent
    .command('explain')
    .description("why a pane's agent has its state (live), or the verdict for a saved screen (--file)")
    .argument('[target]', 'pane id or name, @WORKSPACE or a pattern (each pane in turn; not with --file)')
    .option('--file <screen>', 'explain a saved screen file instead of a live pane (works without a daemon)')
    .option('--agent <name>', 'the agent whose manifest reads the file (with --file)')
    .option('--title <title>', 'the OSC title the program had set (with --file)')
    .option('--progress <state[;percent]>', 'the OSC 9;4 progress, as 3 or 1;40 (with --file)')
    .action(async (target: string | undefined, options, cmd: Command) => {
    const { daemon, json } = globalsOf(cmd);
    if (options.file !== undefined) {
      if (target !== undefined) throw new UsageError('give a pane or --file, not both');
      if (options.agent === undefined) throw new UsageError('--agent NAME is required with --file');
      const { explainFile } = await import('../offline/explain-file.ts');
      explainFile({ file: options.file, agent: options.agent, title: options.title ?? null, progress: options.progress ?? null, json });
      return;
    }
    if (target === undefined) throw new UsageError('name a pane, or explain a saved screen with --file SCREEN --agent NAME');
    await forEachTarget(
      daemon,
      target,
      json,
      async (client, id) => {
        const explained = await client.call(AGENT_EXPLAIN, { target: id });
        // The policy's last decision on the pane; a daemon without policies has none.
        const policy = await client.call(POLICY_LOG, { target: id, limit: 1 }).then((log) => log.decisions[0] ?? null, () => null);
        return { ...explained, policy };
      },
      (result) => printText(formatLiveExplain(result)),
    );
  });

  return agent;
}

export function agentFields(info: AgentInfo): [string, string][] {
  return [
    ['pane', info.name ? `${info.id} (${info.name})` : info.id],
    ['agent', info.agent ?? '-'],
    ['identity', info.identity],
    ['state', info.state],
    ['seen', String(info.seen)],
    ['since', `${formatAge(Date.now() - info.stateSince)} ago`],
    ['decided by', `${info.rule} (${info.source})`],
    ['revision', String(info.revision)],
    ['title', info.title ?? '-'],
    ['progress', info.progress ? `${info.progress.state}${info.progress.percent !== null ? `;${info.progress.percent}` : ''}` : '-'],
    ['queued', String(info.queued)],
    // The draft in the agent's input box, where its manifest reads the box: a prompt would be refused after it.
    ...(info.composer !== undefined ? ([['composer', info.composer === '' ? '(empty)' : JSON.stringify(info.composer)]] as [string, string][]) : []),
    ...(info.prompt
      ? ([
          ['asks', questionLine(info.prompt)],
          ['choices', choicesLine(info.prompt)],
          ...(info.prompt.complete ? [] : ([['incomplete', info.prompt.incomplete ?? 'not read whole']] as [string, string][])),
          ['prompt id', info.prompt.id],
        ] as [string, string][])
      : []),
  ];
}

interface LiveExplain {
  agent: AgentInfo;
  detection: unknown;
  arbiter: unknown;
  policy: PolicyDecision | null;
}

/** A person's view of the live explain; the full structure is in --json. */
function formatLiveExplain(result: LiveExplain): string {
  const lines: string[] = [];
  const info = result.agent;
  lines.push(`${info.name ?? info.id}: ${info.agent ?? 'no agent'} is ${info.state}, decided by ${info.rule} (${info.source})`);
  if (result.policy) lines.push(`policy: prompt ${result.policy.promptId} ${decisionLine(result.policy)}`);
  const arbiter = result.arbiter as {
    evidence: { kind: string; source: string; value: string; ageMs: number | null; authoritative: boolean; decided: boolean; note: string }[];
    pendingDebounce: { state: string; remainingMs: number } | null;
    rejections: { source: string; reason: string; detail: string; at: number }[];
  };
  lines.push('', 'evidence:');
  for (const e of arbiter.evidence) {
    const age = e.ageMs === null ? '' : ` ${formatAge(e.ageMs)} ago`;
    lines.push(`  ${e.decided ? '*' : ' '} ${e.kind}:${e.source} = ${e.value}${age}${e.authoritative ? '' : ' (not authoritative)'}${e.note ? `: ${e.note}` : ''}`);
  }
  if (arbiter.pendingDebounce) lines.push('', `pending: ${arbiter.pendingDebounce.state} in ${arbiter.pendingDebounce.remainingMs} ms unless the screen changes`);
  if (arbiter.rejections.length > 0) {
    lines.push('', 'rejected reports:');
    for (const r of arbiter.rejections) lines.push(`  ${r.source}: ${r.reason} (${r.detail})`);
  }
  const detection = result.detection as { rule: { id: string } | null; fallbackReason: string | null; manifest: { id: string; version: string; source: string }; evaluatedRules: { id: string; matched: boolean }[] } | null;
  if (detection) {
    lines.push('', `screen: manifest ${detection.manifest.id} ${detection.manifest.version} (${detection.manifest.source})`);
    lines.push(`  ${detection.rule ? `rule ${detection.rule.id} matched` : `no rule matched: ${detection.fallbackReason ?? 'fallback'}`}`);
    const matched = detection.evaluatedRules.filter((r) => r.matched).map((r) => r.id);
    if (matched.length > 1) lines.push(`  also matched: ${matched.slice(1).join(', ')}`);
  } else {
    lines.push('', 'screen: no manifest applies (no agent identified)');
  }
  return lines.join('\n');
}
