import type { Command } from 'commander';

/** Commands that work without a daemon (explain a screen file, replay a capture, lint manifests). */
export function registerOfflineCommands(_program: Command): void {}
