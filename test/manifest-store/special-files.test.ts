// Manifests are read only from regular files, with a byte cap held while reading: a FIFO cannot block
// the load, a symlink to /dev/zero cannot fill memory, and an id cannot name a file outside its folder.
// Each load runs in a child process under a hang guard, since a blocking open would stop this one.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CATALOG_SOURCES_FILE } from '../../src/manifest-store/catalog-sources.ts';
import { fillHostile, HANG_GUARD_MS, manifestToml, mkfifo, runGuarded } from './hostile-files.ts';

const root = mkdtempSync(join(tmpdir(), 'corral-special-files-'));
after(() => rmSync(root, { recursive: true, force: true }));

const EXPECTED_CODES = {
  'big.toml': 'manifest_limit_exceeded',
  'dir.toml': 'manifest_not_regular_file',
  'evil.toml': 'manifest_invalid_value',
  'zero.toml': 'manifest_not_regular_file',
  'zz.toml': 'manifest_not_regular_file',
};

function codesByFile(errors: { file: string; code: string }[]): Record<string, string> {
  return Object.fromEntries(errors.map((error) => [error.file.replace(/^.*\//, ''), error.code]).sort());
}

describe('manifest files that are no regular files, too large, or named out of their folder', () => {
  it('refuses each in the override folder, and the good and the catastrophic ones load and work', async () => {
    const user = join(root, 'user');
    fillHostile(user);
    const outcome = await runGuarded(`
      import { ManifestSet } from './src/manifest-store/manifest-set.ts';
      import { evaluate } from './src/detect/evaluate.ts';
      const set = new ManifestSet({ userDir: ${JSON.stringify(user)}, catalogDir: null });
      const hostile = { lines: ['a'.repeat(40) + '!', 'x'.repeat(40)], title: null, progress: null };
      console.log(JSON.stringify({
        errors: set.list().errors,
        good: evaluate(set.get('good'), { lines: ['ready'], title: null, progress: null }).state,
        redos: evaluate(set.get('redos'), hostile).state,
        claude: set.get('claude')?.ref.source,
      }));
    `);
    assert.equal(outcome.timedOut, false, `the load did not finish within the hang guard (${HANG_GUARD_MS} ms)`);
    assert.equal(outcome.status, 0, outcome.stderr);
    const result = JSON.parse(outcome.stdout) as { errors: { file: string; code: string; message: string }[]; good: string; redos: string; claude: string };
    assert.deepEqual(codesByFile(result.errors), EXPECTED_CODES);
    const byName = (name: string) => result.errors.find((error) => error.file.endsWith(`/${name}`))!.message;
    assert.match(byName('zz.toml'), /zz\.toml: is a FIFO, not a regular file/);
    assert.match(byName('zero.toml'), /zero\.toml: is a character device, not a regular file/);
    assert.match(byName('big.toml'), /big\.toml: \d+ bytes exceed the manifest size limit of 262144/);
    assert.match(byName('evil.toml'), /id "\.\.\/\.\.\/evil" must match/);
    assert.equal(result.good, 'idle');
    assert.equal(result.redos, 'unknown');
    assert.equal(result.claude, 'bundled', 'the bundled manifests are in force beside the overrides');
  });

  it('follows a symlink to a regular manifest', async () => {
    const user = join(root, 'linked');
    fillHostile(user);
    writeFileSync(join(root, 'real.toml'), manifestToml('linked', '1.0.0'));
    symlinkSync(join(root, 'real.toml'), join(user, 'linked.toml'));
    const outcome = await runGuarded(`
      import { ManifestSet } from './src/manifest-store/manifest-set.ts';
      console.log(JSON.stringify(new ManifestSet({ userDir: ${JSON.stringify(user)}, catalogDir: null }).get('linked')?.spec.version ?? null));
    `);
    assert.equal(outcome.timedOut, false);
    assert.equal(JSON.parse(outcome.stdout), '1.0.0');
  });

  it('installs only the good manifests of a hostile catalog folder, and none outside its target', async () => {
    const catalog = join(root, 'catalog');
    fillHostile(catalog, '9.0.0');
    const target = join(root, 'installed', 'agent-detection');
    const outcome = await runGuarded(`
      import { installFromCatalog } from './src/manifest-store/catalog.ts';
      console.log(JSON.stringify(installFromCatalog(${JSON.stringify(catalog)}, ${JSON.stringify(target)})));
    `);
    assert.equal(outcome.timedOut, false, `the install did not finish within the hang guard (${HANG_GUARD_MS} ms)`);
    assert.equal(outcome.status, 0, outcome.stderr);
    const result = JSON.parse(outcome.stdout) as { outcomes: { id: string; decision: string }[]; errors: { file: string; code: string }[] };
    assert.deepEqual(codesByFile(result.errors), EXPECTED_CODES);
    assert.deepEqual(result.outcomes.map((o) => `${o.id} ${o.decision}`).sort(), ['good installed', 'redos installed']);
    assert.deepEqual(readdirSync(target).sort(), ['good.toml', 'redos.toml', CATALOG_SOURCES_FILE]);
    assert.deepEqual(readdirSync(join(root, 'installed')), ['agent-detection'], 'nothing was written beside the target');
  });

  it('loads an installed catalog folder holding special files and a FIFO for sources.json', async () => {
    const installed = join(root, 'data-catalog');
    fillHostile(installed);
    mkfifo(join(installed, CATALOG_SOURCES_FILE));
    const outcome = await runGuarded(`
      import { ManifestSet } from './src/manifest-store/manifest-set.ts';
      const set = new ManifestSet({ userDir: null, catalogDir: ${JSON.stringify(installed)} });
      console.log(JSON.stringify({ errors: set.list().errors, good: set.get('good')?.ref.source ?? null }));
    `);
    assert.equal(outcome.timedOut, false, `the load did not finish within the hang guard (${HANG_GUARD_MS} ms)`);
    assert.equal(outcome.status, 0, outcome.stderr);
    const result = JSON.parse(outcome.stdout) as { errors: { file: string; code: string }[]; good: string };
    assert.deepEqual(codesByFile(result.errors), EXPECTED_CODES);
    assert.equal(result.good, 'catalog:unknown', 'an unreadable sources.json only loses the recorded source');
  });
});
