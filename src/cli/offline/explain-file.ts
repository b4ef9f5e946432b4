import { Command } from 'commander';
import { explain, type Explain } from '../../detect/explain.ts';
import { printJson, printText } from '../output.ts';
import { UsageError } from '../print-error.ts';
import { formatExplain } from './explain-format.ts';
import { offlineManifests, requireManifest } from './manifest-source.ts';
import { parseProgress, readScreenLines } from './screen-file.ts';

export interface ExplainFileOptions {
  file: string;
  agent: string;
  title?: string | null;
  progress?: string | null;
  json?: boolean;
}

/** `agent explain --file SCREEN.txt --agent NAME`: the verdict for a saved screen, printed; also returned. */
export function explainFile(options: ExplainFileOptions): Explain {
  const set = offlineManifests();
  const manifest = requireManifest(set, options.agent);
  const result = explain(manifest, {
    lines: readScreenLines(options.file),
    title: options.title ?? null,
    progress: parseProgress(options.progress),
  });
  const errors = set.errorsFor(manifest.spec.id).map((error) => error.message);
  if (options.json) printJson(errors.length ? { ...result, manifest_errors: errors } : result);
  else printText(formatExplain(result, errors));
  return result;
}

/** Adds the offline options of `agent explain` to a command (for the command that also explains live panes). */
export function addExplainFileOptions(command: Command): Command {
  return command
    .option('--file <screen>', 'explain a saved screen file instead of a live pane')
    .option('--agent <name>', 'the agent whose manifest reads the file (with --file)')
    .option('--title <title>', 'the OSC title the program had set (with --file)')
    .option('--progress <state[;percent]>', 'the OSC 9;4 progress, as 3 or 1;40 (with --file)');
}

/**
 * Registers `agent explain --file` when no `agent explain` command exists yet; a live
 * `agent explain` registered elsewhere should call addExplainFileOptions and explainFile itself.
 */
export function registerExplainFileOption(program: Command): void {
  let agent = program.commands.find((command) => command.name() === 'agent');
  if (agent?.commands.some((command) => command.name() === 'explain')) return;
  agent ??= program.command('agent').description('agents in panes');
  addExplainFileOptions(agent.command('explain').description('explain the detection verdict for a saved screen'))
    .option('--json', 'print JSON')
    .action(function (this: Command) {
      const opts = this.optsWithGlobals() as ExplainFileOptions;
      if (!opts.file) throw new UsageError('--file SCREEN is required (live panes are explained through the daemon)');
      if (!opts.agent) throw new UsageError('--agent NAME is required with --file');
      explainFile(opts);
    });
}
