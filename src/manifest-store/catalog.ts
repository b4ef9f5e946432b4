import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOG_SOURCES_FILE, readCatalogRecords, type CatalogRecord } from './catalog-sources.ts';
import type { CompiledManifest } from '../detect/compiled.ts';
import { ManifestError } from '../detect/errors.ts';
import { LIMITS } from '../detect/limits.ts';
import { loadManifestFile, toLoadError, type ManifestLoadError } from './loader.ts';
import { readRegularFile } from './read-regular-file.ts';
import { compareVersions } from '../detect/version.ts';

export type CatalogDecision = 'installed' | 'unchanged' | 'refused_downgrade' | 'refused_same_version_changed' | 'not_newer_than_bundled';

export interface CatalogOutcome {
  id: string;
  version: string;
  file: string; // in the catalog
  decision: CatalogDecision;
  previous: string | null; // installed version before, if any
}

export interface CatalogInstallResult {
  source: string;
  outcomes: CatalogOutcome[];
  errors: ManifestLoadError[]; // catalog files that failed validation: never installed
}

export interface CatalogInstallOptions {
  bundled?: readonly CompiledManifest[]; // a catalog version not newer than the bundled one is skipped
  now?: () => Date;
  source?: string; // recorded instead of the path: the URL a caller downloaded `catalog` from
}

/**
 * Installs manifests from a catalog (a folder of TOML files, a single TOML file, or a file:// URL)
 * into `targetDir`, each only after full validation. Refuses downgrades and a same version with
 * different content; records the source in sources.json. Writes are atomic (temp file, rename).
 */
export function installFromCatalog(catalog: string, targetDir: string, options: CatalogInstallOptions = {}): CatalogInstallResult {
  const path = catalogPath(catalog);
  const source = options.source ?? (catalog.startsWith('file://') ? catalog : resolve(path));
  const files = catalogFiles(path);
  const result: CatalogInstallResult = { source, outcomes: [], errors: [] };
  mkdirSync(targetDir, { recursive: true });
  const records = readCatalogRecords(targetDir);
  const bundled = new Map((options.bundled ?? []).map((manifest) => [manifest.spec.id, manifest.spec.version]));

  for (const file of files) {
    let manifest: CompiledManifest;
    let text: string;
    try {
      ({ manifest, text } = loadManifestFile(file, `catalog:${source}`));
    } catch (error) {
      result.errors.push(toLoadError(file, error));
      continue;
    }
    const { id, version } = manifest.spec;
    const target = join(targetDir, `${id}.toml`);
    // The schema's id pattern already keeps `/` and `..` out; an id that still named another folder would be refused here.
    if (dirname(resolve(target)) !== resolve(targetDir)) {
      result.errors.push(toLoadError(file, new ManifestError('manifest_invalid_value', `${file}: id "${id}" does not name a file in ${targetDir}`)));
      continue;
    }
    const installed = existsSync(target) ? readInstalled(target) : null;
    const outcome = (decision: CatalogDecision): CatalogOutcome => ({ id, version, file, decision, previous: installed?.version ?? null });
    const bundledVersion = bundled.get(id);
    if (installed) {
      const order = compareVersions(version, installed.version);
      if (order < 0) {
        result.outcomes.push(outcome('refused_downgrade'));
        continue;
      }
      if (order === 0) {
        result.outcomes.push(outcome(installed.text === text ? 'unchanged' : 'refused_same_version_changed'));
        continue;
      }
    } else if (bundledVersion !== undefined && compareVersions(version, bundledVersion) <= 0) {
      result.outcomes.push(outcome('not_newer_than_bundled'));
      continue;
    }
    writeAtomic(target, text);
    records[id] = { version, source, installed_at: (options.now?.() ?? new Date()).toISOString() } satisfies CatalogRecord;
    result.outcomes.push(outcome('installed'));
  }
  writeAtomic(join(targetDir, CATALOG_SOURCES_FILE), `${JSON.stringify(records, null, 2)}\n`);
  return result;
}

/** Only local catalogs: a path or a file:// URL. Fetching over http(s) is catalog-download.ts. */
function catalogPath(catalog: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(catalog)) {
    if (!catalog.startsWith('file://')) {
      throw new ManifestError('manifest_read_failed', `catalog ${catalog}: only local paths and file:// URLs are supported; download the catalog first and pass its path`);
    }
    return fileURLToPath(catalog);
  }
  return catalog;
}

function catalogFiles(path: string): string[] {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (error) {
    throw new ManifestError('manifest_read_failed', `catalog ${path}: cannot read: ${(error as Error).message}`);
  }
  if (!isDir) return [path];
  return readdirSync(path).filter((name) => name.endsWith('.toml')).sort().map((name) => join(path, name));
}

function readInstalled(file: string): { version: string; text: string } | null {
  try {
    const { manifest, text } = loadManifestFile(file, 'catalog');
    return { version: manifest.spec.version, text };
  } catch {
    // A broken installed file (or no regular file at all) is replaced by any valid catalog version.
    let text = '';
    try {
      text = readRegularFile(file, LIMITS.maxManifestBytes);
    } catch {
      // replaced all the same
    }
    return { version: '0', text };
  }
}

function writeAtomic(file: string, text: string): void {
  const temp = `${file}.tmp-${process.pid}`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}
