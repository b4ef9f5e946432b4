import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CompiledManifest } from '../detect/compiled.ts';
import { readCatalogSources } from './catalog-sources.ts';
import { BUNDLED_MANIFEST_DIR, loadInto, manifestFilesIn, type DirectoryLoad, type ManifestLoadError } from './loader.ts';
import { compareVersions } from '../detect/version.ts';

export type ManifestLayer = 'bundled' | 'catalog' | 'user';

export interface ManifestSetOptions {
  bundledDir?: string;
  catalogDir?: string | null; // installed catalog updates
  userDir?: string | null; // local overrides; always win
}

/** One agent's manifest in use, and what it shadows. */
export interface ManifestListing {
  id: string;
  name: string;
  version: string;
  source: string;
  layer: ManifestLayer;
  file: string;
  shadowed: { version: string; source: string }[];
}

interface Entry {
  manifest: CompiledManifest;
  layer: ManifestLayer;
  file: string;
}

interface State {
  byLayer: Record<ManifestLayer, Map<string, Entry>>;
  active: Map<string, Entry>;
  aliases: Map<string, string>;
  errors: ManifestLoadError[];
}

export function defaultUserDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'corral', 'agent-detection');
}

export function defaultCatalogDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'corral', 'agent-detection');
}

/**
 * The manifests the daemon evaluates: bundled, then the newer of catalog and bundled, then user
 * overrides. `reload()` builds a whole new state and swaps it in one assignment; a file that fails
 * keeps the manifest it would have replaced (the previous one from its layer, else the layer below).
 */
export class ManifestSet {
  readonly #options: Required<ManifestSetOptions>;
  #state: State;

  constructor(options: ManifestSetOptions = {}) {
    this.#options = {
      bundledDir: options.bundledDir ?? BUNDLED_MANIFEST_DIR,
      catalogDir: options.catalogDir === undefined ? defaultCatalogDir() : options.catalogDir,
      userDir: options.userDir === undefined ? defaultUserDir() : options.userDir,
    };
    this.#state = emptyState();
    this.reload();
  }

  /** Re-reads every source; returns the errors of this load (also kept for `list()` and explain). */
  reload(): ManifestLoadError[] {
    const steps = this.#reloadSteps();
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `reload()` one file per event-loop turn, so a daemon answers its clients while it compiles
   * (a manifest of 200 rules takes tens of milliseconds). The new state is swapped in at the end.
   */
  async reloadInTurns(): Promise<ManifestLoadError[]> {
    const steps = this.#reloadSteps();
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  *#reloadSteps(): Generator<void, ManifestLoadError[]> {
    const previous = this.#state;
    const next = emptyState();
    const catalogSources = this.#options.catalogDir ? readCatalogSources(this.#options.catalogDir) : new Map<string, string>();
    const layers: [ManifestLayer, string | null, (file: string, id: string) => string][] = [
      ['bundled', this.#options.bundledDir, () => 'bundled'],
      ['catalog', this.#options.catalogDir, (_file, id) => `catalog:${catalogSources.get(id) ?? 'unknown'}`],
      ['user', this.#options.userDir, (file) => `user:${file}`],
    ];
    for (const [layer, dir, sourceFor] of layers) {
      if (!dir) continue;
      const load: DirectoryLoad = { manifests: [], errors: [] };
      for (const file of manifestFilesIn(dir)) {
        loadInto(load, file, sourceFor(file, idFromFileName(file)));
        yield;
      }
      const map = next.byLayer[layer];
      for (const { manifest, file } of load.manifests) {
        const ref = layer === 'catalog' ? { ...manifest.ref, source: `catalog:${catalogSources.get(manifest.spec.id) ?? 'unknown'}` } : manifest.ref;
        map.set(manifest.spec.id, { manifest: { ...manifest, ref }, layer, file });
      }
      for (const error of load.errors) {
        next.errors.push(error);
        const kept = error.id ? previous.byLayer[layer].get(error.id) : undefined;
        if (kept && error.id && !map.has(error.id)) map.set(error.id, kept);
      }
    }
    for (const [id, entry] of next.byLayer.bundled) next.active.set(id, entry);
    for (const [id, entry] of next.byLayer.catalog) {
      const bundled = next.active.get(id);
      if (!bundled || compareVersions(entry.manifest.spec.version, bundled.manifest.spec.version) > 0) next.active.set(id, entry);
    }
    for (const [id, entry] of next.byLayer.user) next.active.set(id, entry);
    for (const [id, entry] of next.active) for (const alias of entry.manifest.spec.aliases) if (!next.active.has(alias)) next.aliases.set(alias, id);
    this.#state = next;
    return next.errors;
  }

  /** The manifest in use for an agent id or alias. */
  get(agentId: string): CompiledManifest | null {
    const state = this.#state;
    const id = state.active.has(agentId) ? agentId : state.aliases.get(agentId);
    return id ? state.active.get(id)!.manifest : null;
  }

  /** Every manifest in use, in id order. */
  all(): CompiledManifest[] {
    return [...this.#state.active.values()].map((entry) => entry.manifest).sort((a, b) => a.spec.id.localeCompare(b.spec.id));
  }

  list(): { manifests: ManifestListing[]; errors: ManifestLoadError[] } {
    const state = this.#state;
    const manifests = [...state.active.values()]
      .map(({ manifest, layer, file }) => ({
        id: manifest.spec.id,
        name: manifest.spec.name,
        version: manifest.spec.version,
        source: manifest.ref.source,
        layer,
        file,
        shadowed: (['bundled', 'catalog', 'user'] as const)
          .filter((other) => other !== layer)
          .map((other) => state.byLayer[other].get(manifest.spec.id))
          .filter((entry): entry is Entry => entry !== undefined)
          .map((entry) => ({ version: entry.manifest.spec.version, source: entry.manifest.ref.source })),
      }))
      .sort((a, b) => a.id.localeCompare(b.id));
    return { manifests, errors: [...state.errors] };
  }

  /** Load errors concerning one agent, for explain. */
  errorsFor(agentId: string): ManifestLoadError[] {
    return this.#state.errors.filter((error) => error.id === agentId);
  }
}

function emptyState(): State {
  return { byLayer: { bundled: new Map(), catalog: new Map(), user: new Map() }, active: new Map(), aliases: new Map(), errors: [] };
}

function idFromFileName(file: string): string {
  return file.replace(/^.*[\\/]/, '').replace(/\.toml$/, '');
}
