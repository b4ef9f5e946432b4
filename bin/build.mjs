// Builds and finds the bundle that bin/corral runs: src/ bundled by esbuild (a dependency of tsx)
// into dist/cli/corral.mjs, two folders deep like src/<layer>/, so paths resolved from
// import.meta.url (the package.json, the bundled manifests) stay right. Rebuilt whenever a source
// file or folder is newer than the bundle, so an edited checkout never runs stale code.
import { mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const sources = `${root}src`;
export const BUNDLE = `${root}dist/cli/corral.mjs`;

function newest(dir) {
  let latest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Whether the bundle exists and no source is newer. */
export function bundleIsFresh() {
  try {
    return statSync(BUNDLE).mtimeMs >= newest(sources);
  } catch {
    return false;
  }
}

/** Builds the bundle; concurrent builders each write their own file and rename it into place. */
export async function buildBundle() {
  const { build } = await import('esbuild');
  mkdirSync(`${root}dist/cli`, { recursive: true });
  const temporary = `${BUNDLE}.${process.pid}.tmp`;
  await build({
    entryPoints: [`${sources}/cli/main.ts`],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  renameSync(temporary, BUNDLE);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildBundle();
