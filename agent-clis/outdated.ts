// Lists each recorded agent CLI's pinned, recorded and newest versions, so that the next upgrade is
// one install and one recording away (docs/captures.md). Usage: npm run agents:outdated [-- --offline]
// Pinned: agent-clis/package.json. Recorded: the <version> folders under test/fixtures/streams/<agent>/.
// Newest: `npm view <package> version` (skipped with --offline).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agents } from './agents.ts';

const here = dirname(fileURLToPath(import.meta.url));
const streams = resolve(here, '..', 'test', 'fixtures', 'streams');
const offline = process.argv.includes('--offline');

const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

/** Every version of a package the harness installs: the plain pin and `npm:<package>@<version>` aliases. */
function pinned(name: string): string[] {
  const found: string[] = [];
  for (const [key, spec] of Object.entries(pkg.dependencies)) {
    if (key === name) found.push(spec);
    const alias = /^npm:(.+)@([^@]+)$/.exec(spec);
    if (alias && alias[1] === name) found.push(alias[2]!);
  }
  return found;
}

function recorded(agent: string): string[] {
  const dir = join(streams, agent);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d+(\.\d+)*/.test(entry.name))
    .map((entry) => {
      const sizes = readdirSync(join(dir, entry.name)).filter((size) => /^\d+x\d+$/.test(size));
      return `${entry.name} (${sizes.length} sizes)`;
    });
}

function newest(name: string): string {
  if (offline) return '-';
  const result = spawnSync('npm', ['view', name, 'version'], { encoding: 'utf8', timeout: 30000 });
  return result.status === 0 ? result.stdout.trim() : `? (${(result.stderr || 'npm view failed').trim().split('\n')[0]})`;
}

const rows = Object.values(agents).map((spec) => {
  const pins = pinned(spec.package);
  const latest = newest(spec.package);
  const behind = latest !== '-' && !latest.startsWith('?') && !pins.includes(latest);
  return [spec.id, spec.package, pins.join(', ') || '-', recorded(spec.id).join(', ') || '-', latest, behind ? 'outdated' : ''];
});
const header = ['agent', 'package', 'pinned', 'recorded', 'newest', ''];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
for (const row of [header, ...rows]) process.stdout.write(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd() + '\n');
