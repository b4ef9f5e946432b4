import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { BUNDLED_MANIFEST_DIR } from '../../manifest-store/loader.ts';
import { printJson, printText } from '../output.ts';
import { CheckFailed } from './conformance.ts';
import { loadFixtureScreens } from './fixtures.ts';
import { lintManifests } from './lint-run.ts';

// Beside the bundled manifests, so that it is right from the sources and from the bundle alike.
const FIXTURE_DIR = join(dirname(BUNDLED_MANIFEST_DIR), 'test', 'fixtures');

export function registerLintCommand(program: Command): void {
  const manifest = program.commands.find((command) => command.name() === 'manifest') ?? program.command('manifest').description('agent detection manifests');
  manifest
    .command('lint [files...]')
    .description('check manifests: schema and regex errors, prose-prone blocked rules, overlaps and unused rules against test/fixtures')
    .option('--fixtures <dir>', 'fixture folder with screens/ and streams/', FIXTURE_DIR)
    .option('--json', 'print JSON')
    .action(async function (this: Command, files: string[]) {
      const flags = this.optsWithGlobals() as { fixtures: string; json?: boolean };
      const targets = files.length ? files : readdirSync(BUNDLED_MANIFEST_DIR).filter((name) => name.endsWith('.toml')).sort().map((name) => join(BUNDLED_MANIFEST_DIR, name));
      const findings = lintManifests(targets, await loadFixtureScreens(flags.fixtures));
      const errors = findings.filter((finding) => finding.level === 'error').length;
      if (flags.json) printJson({ files: targets, errors, warnings: findings.length - errors, findings });
      else {
        const lines = findings.map((f) => `${f.level}: ${f.file}${f.line !== undefined ? `:${f.line}:${f.column ?? 1}` : ''}${f.rule ? ` [${f.rule}]` : ''}: ${f.message} (${f.code})`);
        lines.push(`${targets.length} manifests, ${errors} errors, ${findings.length - errors} warnings`);
        printText(lines.join('\n'));
      }
      if (errors > 0) throw new CheckFailed(`manifest lint found ${errors} errors`);
    });
}
