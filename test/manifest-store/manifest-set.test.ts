import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { installFromCatalog } from '../../src/manifest-store/catalog.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';

const root = mkdtempSync(join(tmpdir(), 'corral-manifests-'));
after(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
function folder(files: Record<string, string> = {}): string {
  const dir = join(root, `d${counter++}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function toml(id: string, version: string, marker = 'x'): string {
  return `id = "${id}"\nversion = "${version}"\naliases = ["${id}-alias"]\n[[rules]]\nid = "r"\nstate = "idle"\ncontains = ["${marker}"]\n`;
}

describe('manifest sources', () => {
  it('reads bundled manifests and finds them by id or alias', () => {
    const set = new ManifestSet({ bundledDir: folder({ 'a.toml': toml('alpha', '1.0.0') }), userDir: null, catalogDir: null });
    assert.equal(set.get('alpha')?.ref.source, 'bundled');
    assert.equal(set.get('alpha-alias')?.spec.id, 'alpha');
    assert.equal(set.get('nope'), null);
  });

  it('lets a user override win, decided by the id inside the file', () => {
    const set = new ManifestSet({
      bundledDir: folder({ 'alpha.toml': toml('alpha', '1.0.0') }),
      userDir: folder({ 'my-rules.toml': toml('alpha', '0.1.0') }),
      catalogDir: folder({ 'alpha.toml': toml('alpha', '9.0.0') }),
    });
    const listing = set.list().manifests[0]!;
    assert.equal(listing.version, '0.1.0');
    assert.equal(listing.layer, 'user');
    assert.match(listing.source, /^user:.*my-rules\.toml$/);
    assert.deepEqual(listing.shadowed.map((s) => s.version), ['1.0.0', '9.0.0']);
  });

  it('keeps the previous working override when the file breaks, and lists the error', () => {
    const user = folder({ 'alpha.toml': toml('alpha', '2.0.0') });
    const set = new ManifestSet({ bundledDir: folder({ 'alpha.toml': toml('alpha', '1.0.0') }), userDir: user, catalogDir: null });
    assert.equal(set.get('alpha')?.spec.version, '2.0.0');
    writeFileSync(join(user, 'alpha.toml'), `${toml('alpha', '3.0.0')}bogus_key = 1\n`);
    const errors = set.reload();
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.id, 'alpha');
    assert.equal(errors[0]!.code, 'manifest_unknown_key');
    assert.equal(set.get('alpha')?.spec.version, '2.0.0', 'the previous override stays');
    assert.equal(set.list().errors.length, 1);
    assert.equal(set.errorsFor('alpha').length, 1);
  });

  it('falls back to the bundled manifest when an override never loaded', () => {
    const set = new ManifestSet({
      bundledDir: folder({ 'alpha.toml': toml('alpha', '1.0.0') }),
      userDir: folder({ 'alpha.toml': 'id = "alpha"\nversion = "2.0.0"\n[[rules]]\nid = "r"\nstate = "idle"\nregex = ["("]\n' }),
      catalogDir: null,
    });
    assert.equal(set.get('alpha')?.spec.version, '1.0.0');
    assert.match(set.list().errors[0]!.message, /rule r: pattern/);
  });

  it('uses a catalog manifest only when it is newer than the bundled one', () => {
    const catalog = folder({ 'alpha.toml': toml('alpha', '1.5.0'), 'beta.toml': toml('beta', '0.9.0') });
    writeFileSync(join(catalog, 'sources.json'), JSON.stringify({ alpha: { version: '1.5.0', source: 'file:///cat', installed_at: 'now' } }));
    const set = new ManifestSet({ bundledDir: folder({ 'alpha.toml': toml('alpha', '1.0.0'), 'beta.toml': toml('beta', '1.0.0') }), userDir: null, catalogDir: catalog });
    assert.equal(set.get('alpha')?.ref.source, 'catalog:file:///cat');
    assert.equal(set.get('beta')?.ref.source, 'bundled');
  });
});

describe('catalog install', () => {
  it('installs a validated newer manifest, records its source, and refuses downgrades', () => {
    const target = folder();
    const first = installFromCatalog(folder({ 'alpha.toml': toml('alpha', '1.1.0') }), target);
    assert.deepEqual(first.outcomes.map((o) => o.decision), ['installed']);
    const down = installFromCatalog(folder({ 'alpha.toml': toml('alpha', '1.0.9') }), target);
    assert.deepEqual(down.outcomes.map((o) => [o.decision, o.previous]), [['refused_downgrade', '1.1.0']]);
    const set = new ManifestSet({ bundledDir: folder(), userDir: null, catalogDir: target });
    assert.equal(set.get('alpha')?.spec.version, '1.1.0');
    assert.match(set.get('alpha')!.ref.source, /^catalog:\//);
  });

  it('refuses the same version with different content and accepts the same content', () => {
    const target = folder();
    const catalog = folder({ 'alpha.toml': toml('alpha', '1.0.0') });
    installFromCatalog(catalog, target);
    assert.equal(installFromCatalog(catalog, target).outcomes[0]!.decision, 'unchanged');
    const changed = folder({ 'alpha.toml': toml('alpha', '1.0.0', 'other') });
    assert.equal(installFromCatalog(changed, target).outcomes[0]!.decision, 'refused_same_version_changed');
  });

  it('never installs a file that fails validation, and takes single files and file:// URLs', () => {
    const target = folder();
    const broken = folder({ 'alpha.toml': `${toml('alpha', '5.0.0')}nope = 1\n` });
    const result = installFromCatalog(broken, target);
    assert.equal(result.outcomes.length, 0);
    assert.equal(result.errors[0]!.code, 'manifest_unknown_key');
    const single = join(folder({ 'beta.toml': toml('beta', '1.0.0') }), 'beta.toml');
    assert.equal(installFromCatalog(`file://${single}`, target).outcomes[0]!.decision, 'installed');
    assert.throws(() => installFromCatalog('https://example.com/catalog', target), /only local paths and file:\/\/ URLs/);
  });

  it('skips a catalog version that is not newer than the bundled one', () => {
    const bundled = new ManifestSet({ bundledDir: folder({ 'alpha.toml': toml('alpha', '2.0.0') }), userDir: null, catalogDir: null }).all();
    const result = installFromCatalog(folder({ 'alpha.toml': toml('alpha', '2.0.0') }), folder(), { bundled });
    assert.equal(result.outcomes[0]!.decision, 'not_newer_than_bundled');
  });
});
