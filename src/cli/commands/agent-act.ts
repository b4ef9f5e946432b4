import { Option, type Command } from 'commander';
import { AGENT_ANSWER, AGENT_PROMPT, AGENT_QUEUE, AGENT_CLEAR_QUEUE, type ComposerMode } from '../../protocol/methods/agent-act.ts';
import { PANE_REPORT_METADATA, type PaneMetadata } from '../../protocol/methods/metadata.ts';
import { withDaemon } from '../with-daemon.ts';
import { globalsOf } from '../globals.ts';
import { forEachTarget, oneTarget, RUNNING } from '../targets.ts';
import { printFields, printJson, printTable, printText } from '../output.ts';
import { UsageError } from '../print-error.ts';
import { formatAge } from './format.ts';
import { nonNegativeInt, positiveDuration } from './parse.ts';
import { AGENT_GET } from '../../protocol/methods/agent.ts';
import type { AgentPrompt } from '../../protocol/prompt.ts';
import { choicesLine, findChoice, questionLine } from './prompt-format.ts';

/** The prompt's text: the argument, or all of stdin for `-` (its trailing newlines dropped, since Enter submits). */
async function promptText(text: string): Promise<string> {
  if (text !== '-') return text;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n+$/, '');
}

function oneLine(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * What `agent answer` sends for the words a person gave: the id of the prompt's choice they name, or,
 * when the prompt has none such (or no prompt was read), the option number typed as digits.
 */
function choiceParam(prompt: AgentPrompt | undefined, words: string): string | number {
  const found = prompt ? findChoice(prompt, words) : null;
  if (found) return found.id;
  if (/^\d{1,2}$/.test(words.trim())) return Number(words.trim());
  const choices = prompt && prompt.choices.length > 0 ? `; its choices: ${choicesLine(prompt)}` : prompt ? ` (${choicesLine(prompt)})` : '';
  throw new UsageError(`the prompt has no choice "${words}"${choices}`);
}

/** `agent prompt`, `agent answer`, `agent queue` on the agent group; `pane metadata` on the pane group. */
export function registerAgentActCommands(agent: Command, pane: Command | undefined): void {
  agent
    .command('prompt')
    .description(
      'type TEXT into the agent and submit it; while the agent works it is queued until it is next idle (--now types it at once); ' +
        'refused while the agent is blocked (answer it instead) or while its input box holds a draft (--replace or --append)',
    )
    .argument('<target>', 'pane id or name, @WORKSPACE or a pattern (each running pane in turn)')
    .argument('<text>', 'the prompt, or - to read it from stdin')
    .option('--no-submit', 'type the text without pressing Enter')
    .option('--now', 'type it into a working agent at once instead of queuing it (the agent decides what typing while it works means)')
    .option('--replace', "empty the agent's input box first if it holds a draft (with the keys its manifest names)")
    .option('--append', "type after a draft in the agent's input box, with a space between")
    .option('--force', 'type it although a budget of the agent is spent (budget_exceeded; docs/usage.md)')
    .addOption(new Option('--queue', 'the default: queue the prompt while the agent works').hideHelp())
    .action(async (target: string, text: string, options: { submit: boolean; now?: boolean; replace?: boolean; append?: boolean; force?: boolean }, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      if (options.replace && options.append) throw new UsageError('give --replace or --append, not both');
      const composer: ComposerMode | undefined = options.replace ? 'replace' : options.append ? 'append' : undefined;
      const body = { text: await promptText(text), submit: options.submit, ...(options.now ? { queue: false } : {}), ...(composer ? { composer } : {}), ...(options.force ? { force: true } : {}) };
      await forEachTarget(
        daemon,
        target,
        json,
        (client, id) => client.call(AGENT_PROMPT, { target: id, ...body }),
        (result, id) => {
          if ('queued' in result) printText(`queued for ${id} at position ${result.position}: the agent works; it is typed when the agent is next idle (see \`corral agent queue\`, or --now to type it at once)`);
          else printText(`delivered to ${id} (sinceSeq ${result.seq})`);
        },
        { states: RUNNING },
      );
    });

  agent
    .command('answer')
    .description('answer the prompt a blocked agent shows (see `corral agent get`), by a choice, keys or text; waits until it leaves blocked')
    .argument('<target>', 'pane id or name, or @WORKSPACE or a pattern that names exactly one pane')
    .argument('[choice...]', "the choice: its id, the number or letter that picks it, or the start of its label (`yes`, `1`, `don't ask`)")
    .option('--keys <key...>', 'named keys to send instead of a choice (Enter, Escape, Down, Tab, C-c, ...)')
    .option('--text <text>', 'the answer to a free-text question, submitted with Enter')
    .option('--timeout <duration>', 'give up after this long (default 10s; 15m, 90s, 500ms, a plain number is ms); exit 124', positiveDuration)
    .action(async (target: string, words: string[], options: { keys?: string[]; text?: string; timeout?: number }, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      const choice = words.length > 0 ? words.join(' ') : undefined;
      if ([choice, options.keys, options.text].filter((given) => given !== undefined).length !== 1) {
        throw new UsageError('give a choice, --keys KEY... or --text TEXT, exactly one');
      }
      // An answer is a decision about one form: a group must name exactly one pane, and the answer names the prompt it was chosen from.
      const { id, result } = await withDaemon(daemon, async (client) => {
        const id = await oneTarget(client, target, 'agent answer');
        const { prompt } = await client.call(AGENT_GET, { target: id });
        const answer = {
          ...(prompt ? { promptId: prompt.id } : {}),
          ...(options.timeout !== undefined ? { timeoutMs: options.timeout } : {}),
          ...(options.keys !== undefined ? { keys: options.keys } : options.text !== undefined ? { text: options.text } : { choice: choiceParam(prompt, choice!) }),
        };
        return { id, result: await client.call(AGENT_ANSWER, { target: id, ...answer }) };
      });
      if (json) return printJson(result);
      const repeated = result.repeated ? ' (already answered: typed once)' : '';
      if (result.outcome === 'next' && result.prompt) printText(`${id} answered${repeated}; now it asks ${questionLine(result.prompt)}\n  choices: ${choicesLine(result.prompt)}`);
      else if (result.outcome === 'pending') printText(`${id} answered${repeated}: the dialog is gone, but it is still ${result.state} with no dialog on screen (${formatAge(result.elapsedMs)}); see \`corral agent get ${id}\``);
      else printText(`${id} left blocked: now ${result.state} (${formatAge(result.elapsedMs)})${repeated}`);
    });

  agent
    .command('queue')
    .description("list the prompts waiting in the pane's steering queue, or empty it with --clear")
    .argument('<target>', 'pane id or name, @WORKSPACE or a pattern (each pane in turn)')
    .option('--clear', 'drop every waiting prompt')
    .action(async (target: string, options: { clear?: boolean }, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      if (options.clear) {
        return forEachTarget(daemon, target, json, (client, id) => client.call(AGENT_CLEAR_QUEUE, { target: id }), (result, id) =>
          printText(`cleared ${result.cleared} queued prompt${result.cleared === 1 ? '' : 's'} of ${id}`),
        );
      }
      await forEachTarget(daemon, target, json, (client, id) => client.call(AGENT_QUEUE, { target: id }), (result, id) => {
        if (result.prompts.length === 0) return printText(`no prompts queued for ${id}`);
        const now = Date.now();
        printTable(
          ['#', 'AGE', 'SUBMIT', 'TEXT'],
          result.prompts.map((p, i) => [String(i + 1), formatAge(now - p.queuedAt), p.submit ? 'yes' : 'no', oneLine(p.text)]),
        );
      });
    });

  pane
    ?.command('metadata')
    .description('report display-only metadata for a pane, from a process running in it (never changes its state); it expires after --ttl')
    .argument('<target>', 'pane id or name, @WORKSPACE or a pattern (each running pane in turn)')
    .requiredOption('--source <name>', 'who reports; a later report of the same source replaces the earlier one')
    .option('--title <text>', 'a title to show for the pane')
    .option('--display-agent <name>', 'the agent name to show')
    .option('--state-label <text>', 'a label to show beside the state')
    .option('--tokens <n>', 'a token count to show', nonNegativeInt)
    .option('--ttl <duration>', 'expire after this long (default 10m; a plain number is ms); no field at all removes the source', positiveDuration)
    .action(async (target: string, options: { source: string; title?: string; displayAgent?: string; stateLabel?: string; tokens?: number; ttl?: number }, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      const report = {
        source: options.source,
        ...(options.title !== undefined ? { title: options.title } : {}),
        ...(options.displayAgent !== undefined ? { displayAgent: options.displayAgent } : {}),
        ...(options.stateLabel !== undefined ? { stateLabel: options.stateLabel } : {}),
        ...(options.tokens !== undefined ? { tokens: options.tokens } : {}),
        ...(options.ttl !== undefined ? { ttlMs: options.ttl } : {}),
      };
      await forEachTarget(
        daemon,
        target,
        json,
        (client, id) => client.call(PANE_REPORT_METADATA, { target: id, ...report }),
        (result, id) => (result.metadata === null ? printText(`no metadata left for ${id}`) : printFields(metadataFields(result.metadata))),
        { states: RUNNING },
      );
    });
}

export function metadataFields(metadata: PaneMetadata): [string, string][] {
  const now = Date.now();
  return [
    ['title', metadata.title ?? '-'],
    ['display agent', metadata.displayAgent ?? '-'],
    ['state label', metadata.stateLabel ?? '-'],
    ['tokens', metadata.tokens !== undefined ? String(metadata.tokens) : '-'],
    ...Object.entries(metadata.sources).map(([source, entry]): [string, string] => [`source ${source}`, `expires in ${formatAge(entry.expiresAt - now)}`]),
  ];
}
