import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CATALOG_FETCH_LIMITS, CatalogFetchError, installFromRemoteCatalog } from '../../src/manifest-store/catalog-download.ts';
import { installFromCatalog } from '../../src/manifest-store/catalog.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'corral-catalog-fetch-'));

function toml(id: string, version: string, marker = 'x'): string {
  return `id = "${id}"\nversion = "${version}"\n[[rules]]\nid = "r"\nstate = "idle"\ncontains = ["${marker}"]\n`;
}

let counter = 0;
function folder(files: Record<string, string> = {}): string {
  const dir = join(root, `d${counter++}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** What the loopback server answers for a path: a body, a status and headers, or a response it never finishes. */
type Route = string | { status?: number; body?: string; headers?: Record<string, string>; chunked?: boolean; stall?: boolean };
const routes = new Map<string, Route>();
let base = '';

const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const route = routes.get(request.url ?? '') ?? { status: 404, body: 'not found' };
  const { status = 200, body = '', headers = {}, chunked = false, stall = false } = typeof route === 'string' ? { body: route } : route;
  response.writeHead(status, chunked || stall ? headers : { 'content-length': String(Buffer.byteLength(body)), ...headers });
  if (stall) return void response.write('{"manif');
  if (chunked) for (let i = 0; i < body.length; i += 4096) response.write(body.slice(i, i + 4096));
  response.end(chunked ? undefined : body);
});

before(async () => {
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
  rmSync(root, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<CatalogFetchError> {
  const error = await promise.then(() => null, (reason: unknown) => reason);
  assert.ok(error instanceof CatalogFetchError, `expected a CatalogFetchError, got ${String(error)}`);
  return error;
}

describe('http(s) catalogs', () => {
  it('installs a single .toml URL and records the URL as its source', async () => {
    routes.set('/one/alpha.toml', toml('alpha', '1.0.0'));
    const target = folder();
    const result = await installFromRemoteCatalog(`${base}/one/alpha.toml`, target);
    assert.deepEqual(result.outcomes.map((o) => [o.id, o.decision, o.file]), [['alpha', 'installed', `${base}/one/alpha.toml`]]);
    assert.equal(result.tls, false);
    const set = new ManifestSet({ bundledDir: folder(), userDir: null, catalogDir: target });
    assert.equal(set.get('alpha')!.ref.source, `catalog:${base}/one/alpha.toml`);
  });

  it('installs a newer manifest from an index and refuses the same version with other content', async () => {
    const target = folder();
    installFromCatalog(folder({ 'alpha.toml': toml('alpha', '1.0.0'), 'beta.toml': toml('beta', '1.0.0') }), target);
    routes.set('/cat/index.json', JSON.stringify({ catalog_version: '2024.1', manifests: ['alpha.toml', `${base}/elsewhere/beta.toml`] }));
    routes.set('/cat/alpha.toml', toml('alpha', '1.1.0'));
    routes.set('/elsewhere/beta.toml', toml('beta', '1.0.0', 'changed'));
    const result = await installFromRemoteCatalog(`${base}/cat/index.json`, target);
    assert.equal(result.catalog_version, '2024.1');
    assert.deepEqual(
      result.outcomes.map((o) => [o.id, o.decision, o.previous, o.file]),
      [
        ['alpha', 'installed', '1.0.0', `${base}/cat/alpha.toml`],
        ['beta', 'refused_same_version_changed', '1.0.0', `${base}/elsewhere/beta.toml`],
      ],
    );
    const set = new ManifestSet({ bundledDir: folder(), userDir: null, catalogDir: target });
    assert.equal(set.get('alpha')!.spec.version, '1.1.0');
    assert.equal(set.get('alpha')!.ref.source, `catalog:${base}/cat/index.json`);
    assert.ok(set.get('beta')!.ref.source.startsWith('catalog:/'), 'the refused manifest keeps its earlier source');
  });

  it('reports an invalid or missing manifest of an index by its URL and installs the rest', async () => {
    routes.set('/mixed/index.json', JSON.stringify({ manifests: ['good.toml', 'broken.toml', 'gone.toml'] }));
    routes.set('/mixed/good.toml', toml('good', '1.0.0'));
    routes.set('/mixed/broken.toml', `${toml('broken', '1.0.0')}nope = 1\n`);
    const target = folder();
    const result = await installFromRemoteCatalog(`${base}/mixed/index.json`, target);
    assert.deepEqual(result.outcomes.map((o) => [o.id, o.decision]), [['good', 'installed']]);
    assert.deepEqual(result.errors.map((e) => [e.code, e.file]), [
      ['catalog_fetch_failed', `${base}/mixed/gone.toml`],
      ['manifest_unknown_key', `${base}/mixed/broken.toml`],
    ]);
    assert.match(result.errors[0]!.message, /HTTP 404/);
    assert.ok(result.errors[1]!.message.startsWith(`${base}/mixed/broken.toml:`), result.errors[1]!.message);
    assert.deepEqual(readdirSync(target).sort(), ['good.toml', 'sources.json']);
  });

  it('installs nothing when the index answers 404', async () => {
    const target = folder();
    const error = await failure(installFromRemoteCatalog(`${base}/missing/index.json`, target));
    assert.equal(error.code, 'catalog_fetch_failed');
    assert.match(error.message, new RegExp(`${base}/missing/index.json: HTTP 404`));
    assert.deepEqual(readdirSync(target), []);
  });

  it('stops reading an index over its size limit, with or without a declared length', async () => {
    const big = JSON.stringify({ manifests: [], catalog_version: 'x'.repeat(CATALOG_FETCH_LIMITS.maxIndexBytes) });
    routes.set('/big/declared.json', big);
    routes.set('/big/chunked.json', { body: big, chunked: true });
    for (const path of ['/big/declared.json', '/big/chunked.json']) {
      const target = folder();
      const error = await failure(installFromRemoteCatalog(`${base}${path}`, target));
      assert.equal(error.code, 'catalog_limit_exceeded');
      assert.match(error.message, new RegExp(`catalog index ${base}${path}: .* exceed the limit of 65536`));
      assert.deepEqual(readdirSync(target), []);
    }
  });

  it('refuses an index with more manifests than its limit', async () => {
    routes.set('/many/index.json', JSON.stringify({ manifests: Array.from({ length: CATALOG_FETCH_LIMITS.maxManifests + 1 }, (_, i) => `m${i}.toml`) }));
    const error = await failure(installFromRemoteCatalog(`${base}/many/index.json`, folder()));
    assert.equal(error.code, 'catalog_limit_exceeded');
    assert.match(error.message, /101 manifests exceed the limit of 100/);
  });

  it('rejects a manifest over its size limit: the whole run for a single URL, that file for an index', async () => {
    const huge = `${toml('huge', '1.0.0')}# ${'x'.repeat(CATALOG_FETCH_LIMITS.maxManifestBytes)}\n`;
    routes.set('/huge/huge.toml', { body: huge, chunked: true });
    const single = await failure(installFromRemoteCatalog(`${base}/huge/huge.toml`, folder()));
    assert.equal(single.code, 'catalog_limit_exceeded');
    assert.match(single.message, new RegExp(`catalog manifest ${base}/huge/huge.toml: .* exceed the limit of 262144`));
    routes.set('/huge/index.json', JSON.stringify({ manifests: ['huge.toml', '/one/alpha.toml'] }));
    const result = await installFromRemoteCatalog(`${base}/huge/index.json`, folder());
    assert.deepEqual(result.errors.map((e) => [e.code, e.file]), [['catalog_limit_exceeded', `${base}/huge/huge.toml`]]);
    assert.deepEqual(result.outcomes.map((o) => [o.id, o.decision]), [['alpha', 'installed']]);
  });

  it('gives up on a slow server at the download deadline and installs nothing', async () => {
    routes.set('/slow/index.json', { stall: true });
    const target = folder();
    const started = Date.now();
    const error = await failure(installFromRemoteCatalog(`${base}/slow/index.json`, target, { timeoutMs: 300 }));
    assert.equal(error.code, 'catalog_timeout');
    assert.match(error.message, /longer than its limit of 300 ms/);
    assert.ok(Date.now() - started < 3000);
    assert.deepEqual(readdirSync(target), []);
  });

  it('follows redirects to http(s) only, resolving entries against where the index was served', async () => {
    routes.set('/moved/index.json', { status: 302, headers: { location: '/cat2/index.json' } });
    routes.set('/cat2/index.json', JSON.stringify({ manifests: ['gamma.toml'] }));
    routes.set('/cat2/gamma.toml', toml('gamma', '1.0.0'));
    const result = await installFromRemoteCatalog(`${base}/moved/index.json`, folder());
    assert.deepEqual(result.outcomes.map((o) => [o.id, o.file]), [['gamma', `${base}/cat2/gamma.toml`]]);
    routes.set('/sneaky/index.json', { status: 302, headers: { location: 'file:///etc/passwd' } });
    const error = await failure(installFromRemoteCatalog(`${base}/sneaky/index.json`, folder()));
    assert.equal(error.code, 'catalog_fetch_failed');
    assert.match(error.message, /HTTP\(S\) scheme/);
  });

  it('names what is wrong with an index that is not one', async () => {
    routes.set('/bad/html', '<html>captive portal</html>');
    routes.set('/bad/key.json', JSON.stringify({ manifests: [], checksum: 'x' }));
    routes.set('/bad/file.json', JSON.stringify({ manifests: ['file:///etc/passwd'] }));
    const reasons = [];
    for (const path of ['/bad/html', '/bad/key.json', '/bad/file.json']) {
      const error = await failure(installFromRemoteCatalog(`${base}${path}`, folder()));
      assert.equal(error.code, 'catalog_bad_index');
      reasons.push(error.message.replace(`catalog index ${base}${path}: `, '').split(/[;(]/)[0]!.trim());
    }
    assert.deepEqual(reasons, ['not a JSON document', 'unknown key "checksum"', 'manifest entry "file:///etc/passwd" is not an http']);
  });
});

describe('corral server update-manifests --from URL', () => {
  function corral(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
    // Asynchronous, so this process's server can answer the child's requests.
    const child = spawn(process.execPath, [join(ROOT, 'bin/corral'), ...args], { env: { ...process.env, XDG_CONFIG_HOME: join(root, 'config'), XDG_DATA_HOME: join(root, 'data') } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    return new Promise((done) => child.on('close', (status) => done({ status, stdout, stderr })));
  }

  it('installs from an index over plain http with a warning, and explain names the URL', async () => {
    const claude = `id = "claude"\nversion = "99.0.0"\n[identity]\nexecutables = ["claude"]\n[[rules]]\nid = "catalog_idle"\nstate = "idle"\ncontains = ["from the catalog"]\n`;
    routes.set('/e2e/index.json', JSON.stringify({ catalog_version: '7', manifests: ['claude.toml'] }));
    routes.set('/e2e/claude.toml', claude);
    const into = join(root, 'data', 'corral', 'agent-detection'); // the default catalog folder under XDG_DATA_HOME
    const update = await corral('server', 'update-manifests', '--from', `${base}/e2e/index.json`, '--into', into, '--json');
    assert.equal(update.status, 0, update.stderr);
    assert.match(update.stderr, /warning: the catalog .* was fetched without TLS/);
    const report = JSON.parse(update.stdout);
    assert.deepEqual([report.source, report.catalog_version, report.tls], [`${base}/e2e/index.json`, '7', false]);
    assert.deepEqual(report.outcomes.map((o: { id: string; decision: string }) => [o.id, o.decision]), [['claude', 'installed']]);
    assert.ok(existsSync(join(into, 'claude.toml')));

    const screen = join(root, 'screen.txt');
    writeFileSync(screen, 'text from the catalog\n');
    const explain = await corral('agent', 'explain', '--file', screen, '--agent', 'claude', '--json');
    assert.equal(explain.status, 0, explain.stderr);
    const verdict = JSON.parse(explain.stdout);
    assert.deepEqual([verdict.rule.id, verdict.manifest.version, verdict.manifest.source], ['catalog_idle', '99.0.0', `catalog:${base}/e2e/index.json`]);
  });

  it('exits 1 with the error code and URL when the catalog cannot be fetched', async () => {
    const result = await corral('server', 'update-manifests', '--from', `${base}/nowhere.toml`, '--into', folder());
    assert.equal(result.status, 1);
    assert.match(result.stderr, new RegExp(`catalog manifest ${base}/nowhere.toml: HTTP 404 Not Found \\[catalog_fetch_failed\\]`));
  });
});
