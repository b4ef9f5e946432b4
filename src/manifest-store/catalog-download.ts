import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installFromCatalog, type CatalogInstallOptions, type CatalogInstallResult } from './catalog.ts';
import { LIMITS } from '../detect/limits.ts';
import type { ManifestLoadError } from './loader.ts';

/** Named limits on what an http(s) catalog may make us download (docs/manifests.md, "Catalogs"). */
export const CATALOG_FETCH_LIMITS = {
  maxIndexBytes: 64 * 1024,
  maxManifests: 100,
  maxManifestBytes: LIMITS.maxManifestBytes, // the loader's own limit
  timeoutMs: 30_000, // the whole download: index and every manifest
} as const;

export type CatalogFetchErrorCode = 'catalog_fetch_failed' | 'catalog_limit_exceeded' | 'catalog_bad_index' | 'catalog_timeout';

/** A catalog that could not be downloaded; when the index or a single .toml fails, nothing is installed. */
export class CatalogFetchError extends Error {
  readonly code: CatalogFetchErrorCode;

  constructor(code: CatalogFetchErrorCode, message: string) {
    super(message);
    this.name = 'CatalogFetchError';
    this.code = code;
  }
}

/** The index a catalog publishes as a static JSON file. */
export interface CatalogIndex {
  catalog_version?: string;
  manifests: string[]; // relative to the index URL, or absolute http(s) URLs
}

export interface RemoteInstallResult extends CatalogInstallResult {
  catalog_version: string | null;
  tls: boolean; // false when any response (index, manifest or a redirect's end) came over plain http
}

export interface RemoteInstallOptions extends Omit<CatalogInstallOptions, 'source'> {
  timeoutMs?: number;
}

export function isRemoteCatalog(from: string): boolean {
  return /^https?:\/\//i.test(from);
}

/**
 * Downloads an http(s) catalog into a temporary folder, then installs it with `installFromCatalog`
 * (full validation, no downgrades, atomic writes), recording `url` as the source. A URL whose path
 * ends in `.toml` is one manifest; any other is a JSON index. Outcomes and errors name the URLs.
 */
export async function installFromRemoteCatalog(url: string, targetDir: string, options: RemoteInstallOptions = {}): Promise<RemoteInstallResult> {
  const { timeoutMs = CATALOG_FETCH_LIMITS.timeoutMs, ...installOptions } = options;
  if (!URL.canParse(url)) throw new CatalogFetchError('catalog_fetch_failed', `catalog ${url}: not a valid URL`);
  const session = new DownloadSession(timeoutMs);
  const dir = mkdtempSync(join(tmpdir(), 'corral-catalog-'));
  try {
    const urlOf = new Map<string, string>(); // temporary file -> the URL it came from
    const failed: ManifestLoadError[] = [];
    let catalogVersion: string | null = null;
    if (new URL(url).pathname.endsWith('.toml')) {
      const file = join(dir, '000.toml');
      writeFileSync(file, await session.manifest(url));
      urlOf.set(file, url);
    } else {
      const index = await session.index(url);
      catalogVersion = index.catalogVersion;
      for (const [i, manifestUrl] of index.manifests.entries()) {
        const file = join(dir, `${String(i).padStart(3, '0')}.toml`);
        try {
          writeFileSync(file, await session.manifest(manifestUrl));
          urlOf.set(file, manifestUrl);
        } catch (error) {
          // Out of time is the whole catalog's failure; one missing or oversized file is that file's.
          if (!(error instanceof CatalogFetchError) || error.code === 'catalog_timeout') throw error;
          failed.push({ file: manifestUrl, id: null, code: error.code, message: error.message, line: null, column: null });
        }
      }
    }
    const result = installFromCatalog(dir, targetDir, { ...installOptions, source: url });
    const named = (file: string) => urlOf.get(file) ?? file;
    return {
      source: url,
      outcomes: result.outcomes.map((outcome) => ({ ...outcome, file: named(outcome.file) })),
      errors: [...failed, ...result.errors.map((error) => ({ ...error, file: named(error.file), message: error.message.replaceAll(error.file, named(error.file)) }))],
      catalog_version: catalogVersion,
      tls: session.tls,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One download run: a single deadline over every request, and whether all of it came over TLS. */
class DownloadSession {
  readonly #signal: AbortSignal;
  readonly #timeoutMs: number;
  tls = true;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    this.#signal = AbortSignal.timeout(timeoutMs);
  }

  async index(url: string): Promise<{ catalogVersion: string | null; manifests: string[] }> {
    const { body, finalUrl } = await this.#fetch(url, CATALOG_FETCH_LIMITS.maxIndexBytes, 'index');
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
    } catch (error) {
      throw new CatalogFetchError('catalog_bad_index', `catalog index ${url}: not a JSON document (${(error as Error).message}); an index is {"manifests": ["claude.toml", ...]}, a single manifest URL ends in .toml`);
    }
    const index = checkIndex(url, parsed);
    if (index.manifests.length > CATALOG_FETCH_LIMITS.maxManifests) {
      throw new CatalogFetchError('catalog_limit_exceeded', `catalog index ${url}: ${index.manifests.length} manifests exceed the limit of ${CATALOG_FETCH_LIMITS.maxManifests}`);
    }
    // Relative entries resolve against where the index was finally served from (after redirects), as in HTML.
    const manifests = index.manifests.map((entry) => {
      let resolved: URL;
      try {
        resolved = new URL(entry, finalUrl);
      } catch {
        throw new CatalogFetchError('catalog_bad_index', `catalog index ${url}: manifest entry "${entry}" is not a URL`);
      }
      if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') {
        throw new CatalogFetchError('catalog_bad_index', `catalog index ${url}: manifest entry "${entry}" is not an http(s) URL`);
      }
      return resolved.href;
    });
    return { catalogVersion: index.catalog_version ?? null, manifests };
  }

  async manifest(url: string): Promise<Uint8Array> {
    return (await this.#fetch(url, CATALOG_FETCH_LIMITS.maxManifestBytes, 'manifest')).body;
  }

  async #fetch(url: string, limit: number, what: 'index' | 'manifest'): Promise<{ body: Uint8Array; finalUrl: string }> {
    const label = `catalog ${what} ${url}`;
    try {
      // fetch follows up to 20 redirects, and only to http(s) URLs; TLS is judged on the URL asked for and the one that answered.
      if (new URL(url).protocol === 'http:') this.tls = false;
      const response = await fetch(url, { signal: this.#signal, redirect: 'follow' });
      if (response.url.startsWith('http:')) this.tls = false;
      if (!response.ok) {
        await response.body?.cancel();
        throw new CatalogFetchError('catalog_fetch_failed', `${label}: HTTP ${response.status} ${response.statusText}`.trimEnd());
      }
      return { body: await readLimited(response, limit, label), finalUrl: response.url || url };
    } catch (error) {
      if (this.#signal.aborted) {
        throw new CatalogFetchError('catalog_timeout', `${label}: the catalog download took longer than its limit of ${this.#timeoutMs} ms; try again, or download the files and pass their folder`);
      }
      if (error instanceof CatalogFetchError) throw error;
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new CatalogFetchError('catalog_fetch_failed', `${label}: ${(error as Error).message}${cause ? ` (${cause})` : ''}`);
    }
  }
}

/** Reads a body, stopping as soon as it passes `limit` bytes (a Content-Length above it stops it before). */
async function readLimited(response: Response, limit: number, label: string): Promise<Uint8Array> {
  const tooLarge = (size: string) => new CatalogFetchError('catalog_limit_exceeded', `${label}: ${size} bytes exceed the limit of ${limit}`);
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel();
    throw tooLarge(String(declared));
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw tooLarge(`more than ${limit}`);
      }
      chunks.push(read.value);
    }
  }
  return Buffer.concat(chunks);
}

function checkIndex(url: string, parsed: unknown): CatalogIndex {
  const bad = (why: string) => new CatalogFetchError('catalog_bad_index', `catalog index ${url}: ${why}; an index is {"catalog_version": "...", "manifests": ["claude.toml", ...]}`);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad('not a JSON object');
  const allowed = ['catalog_version', 'manifests'];
  for (const key of Object.keys(parsed)) {
    if (!allowed.includes(key)) throw bad(`unknown key "${key}" (allowed: ${allowed.join(', ')})`);
  }
  const { manifests, catalog_version: version } = parsed as Record<string, unknown>;
  if (!Array.isArray(manifests) || !manifests.every((entry) => typeof entry === 'string')) throw bad('"manifests" must be an array of URL strings');
  if (version !== undefined && typeof version !== 'string') throw bad('"catalog_version" must be a string');
  return { manifests: manifests as string[], ...(version === undefined ? {} : { catalog_version: version as string }) };
}
