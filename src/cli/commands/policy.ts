import type { Command } from 'commander';
import { EventStream, type AnyCorralEvent } from '../../client/index.ts';
import { streamUntilSignal } from '../stream-until-signal.ts';
import { POLICY_CHECK, POLICY_LOG, POLICY_PAUSE, POLICY_RESUME, POLICY_STATUS, type PolicyStatus } from '../../protocol/methods/policy.ts';
import { globalsOf } from '../globals.ts';
import { printFields, printJson, printText } from '../output.ts';
import { UsageError } from '../print-error.ts';
import { oneTarget } from '../targets.ts';
import { withDaemon } from '../with-daemon.ts';
import { auditLine, decisionLine, ruleName } from './policy-format.ts';

function statusFields(status: PolicyStatus): [string, string][] {
  return [
    ['policy', status.active ? `on (${status.mode})` : status.rules === 0 ? 'none: no rules loaded' : status.paused ? 'paused' : status.mode],
    ['files', status.files.join(', ') || '-'],
    ['rules', String(status.rules)],
    ['loop limit', `${status.loopLimit} automatic answers per pane a minute`],
    ['audit log', status.log ?? '-'],
  ];
}

/** `corral policy`: the approval policy's status, decisions, check and test, and its kill switch (docs/policy.md). */
export function registerPolicyCommands(program: Command): void {
  const policy = program.command('policy').description('the approval policy: which prompts Corral answers by itself (docs/policy.md)');

  policy
    .command('status')
    .description('the policy files, rule count and mode, and whether it is paused')
    .action(async (_options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const status = await withDaemon(socket, (client) => client.call(POLICY_STATUS, {}));
      if (json) printJson(status);
      else printFields(statusFields(status));
    });

  for (const [name, method, what] of [
    ['pause', POLICY_PAUSE, 'the kill switch: answer nothing by policy until `corral policy resume` (every prompt goes to the person)'],
    ['resume', POLICY_RESUME, 'answer by policy again'],
  ] as const) {
    policy
      .command(name)
      .description(what)
      .action(async (_options, cmd: Command) => {
        const { socket, json } = globalsOf(cmd);
        const status = await withDaemon(socket, (client) => client.call(method, {}));
        if (json) printJson(status);
        else printText(`policy ${status.paused ? 'paused: no prompt is answered by it' : status.active ? `on (${status.mode})` : 'resumed (no rules loaded)'}`);
      });
  }

  policy
    .command('check')
    .description("which rule would decide a pane's current prompt, and why (types nothing)")
    .argument('<target>', 'pane id or name')
    .action(async (target: string, _options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const result = await withDaemon(socket, async (client) => client.call(POLICY_CHECK, { target: await oneTarget(client, target, 'policy check') }));
      if (json) return printJson(result);
      if (result.prompt === null || result.decision === null) return printText(`${target} shows no prompt: nothing to decide${result.last ? `\nlast: ${auditLine(result.last)}` : ''}`);
      const { decision } = result;
      printFields([
        ['prompt', `${result.prompt.id} (${result.prompt.kind}${result.prompt.complete ? '' : ', incomplete'})`],
        ['asks', `${decision.subject.tool ?? '?'} ${JSON.stringify(decision.subject.command ?? decision.subject.path ?? result.prompt.text.split('\n')[0] ?? '')}`],
        ['decision', `${decision.action}${decision.choice ? ` with ${decision.choice}` : ''} by ${ruleName(decision.rule)}`],
        ['why', decision.reason],
        ...(result.last ? ([['last', decisionLine(result.last)]] as [string, string][]) : []),
      ]);
    });

  policy
    .command('log')
    .description("the policy's decisions, newest last (the audit log); --follow streams new ones")
    .argument('[target]', 'only this pane (id or name)')
    .option('--limit <n>', 'how many of the newest decisions (1-1000)', '50')
    .option('--follow', 'then print each new decision as it is taken, until interrupted')
    .action(async (target: string | undefined, options: { limit: string; follow?: boolean }, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError(`--limit takes a whole number from 1 to 1000, not "${options.limit}"`);
      const { decisions, pane } = await withDaemon(socket, async (client) => {
        const id = target === undefined ? undefined : await oneTarget(client, target, 'policy log');
        return { pane: id, ...(await client.call(POLICY_LOG, { limit, ...(id !== undefined ? { target: id } : {}) })) };
      });
      const print = (decision: (typeof decisions)[number]) => process.stdout.write(`${json ? JSON.stringify(decision) : auditLine(decision)}\n`);
      decisions.forEach(print);
      if (!options.follow) return;
      const stream = new EventStream(socket, { filter: `kind:policy.decided${pane !== undefined ? ` pane:${pane}` : ''}` }, (event: AnyCorralEvent) => {
        if (event.kind === 'policy.decided') print(event.data.decision);
      }, {});
      await streamUntilSignal(stream);
    });

  policy
    .command('test')
    .description('run a policy file over recordings (asciicast or raw, as `detect replay` reads them; folders searched) or saved screens, and print every prompt it would answer (works without a daemon)')
    .argument('<policy>', 'the policy file (as policy.toml is written)')
    .argument('<recordings...>', 'recordings, saved screens, or folders of recordings')
    .option('--agent <name>', 'the agent recorded (default: the labels.json beside each recording)')
    .option('--all', 'print every dialog decided, the ones left to the person too')
    .action(async (file: string, recordings: string[], options: { agent?: string; all?: boolean }, cmd: Command) => {
      const { json } = globalsOf(cmd);
      const { runPolicyFileTest } = await import('../offline/policy-test-run.ts');
      const entries = await runPolicyFileTest(file, recordings, options.agent);
      const shown = options.all ? entries : entries.filter((entry) => entry.decision.action !== 'ask');
      if (json) return printJson(shown);
      const { formatPolicyTest } = await import('../offline/policy-test.ts');
      printText(shown.length === 0 ? `the policy answers none of the ${entries.length} dialogs read` : formatPolicyTest(shown));
    });
}
