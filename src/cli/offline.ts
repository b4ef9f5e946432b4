import type { Command } from 'commander';
import { registerAccuracyCommand } from './offline/accuracy.ts';
import { registerConformanceCommand } from './offline/conformance.ts';
import { registerExplainFileOption } from './offline/explain-file.ts';
import { registerIntegrationCommand } from './offline/integration.ts';
import { registerLintCommand } from './offline/lint.ts';
import { registerReplayCommand } from './offline/replay.ts';
import { registerUpdateManifestsCommand } from './offline/update-manifests.ts';

export { addExplainFileOptions, explainFile, registerExplainFileOption } from './offline/explain-file.ts';

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
