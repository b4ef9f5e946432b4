import type { Command } from 'commander';
import { registerAccuracyCommand } from './accuracy.ts';
import { registerConformanceCommand } from './conformance.ts';
import { registerExplainFileOption } from './explain-file.ts';
import { registerIntegrationCommand } from './integration.ts';
import { registerLintCommand } from './lint.ts';
import { registerReplayCommand } from './replay.ts';
import { registerUpdateManifestsCommand } from './update-manifests.ts';

export { addExplainFileOptions, explainFile, registerExplainFileOption } from './explain-file.ts';

/** Commands that work without a daemon (explain a screen file, replay a capture, lint manifests). */
export function registerOfflineCommands(program: Command): void {
  const detect = program.commands.find((command) => command.name() === 'detect') ?? program.command('detect').description('agent detection, offline');
  registerReplayCommand(detect);
  registerConformanceCommand(detect);
  registerAccuracyCommand(detect);
  registerLintCommand(program);
  registerUpdateManifestsCommand(program);
  registerIntegrationCommand(program);
  registerExplainFileOption(program);
}
