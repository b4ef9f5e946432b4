// Builds and finds the bundle that bin/corral runs: src/ bundled by esbuild (a dependency of tsx)
// into dist/cli/corral.mjs, two folders deep like src/<layer>/, so paths resolved from
// import.meta.url (the package.json, the bundled manifests) stay right. Rebuilt whenever a source
// file or folder is newer than the bundle, so an edited checkout never runs stale code.
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const sources = `${root}src`;
export const BUNDLE = `${root}dist/cli/corral.mjs`;
/** `corral/client` (package.json `exports`): plain JavaScript plus type declarations, built at install. */
export const CLIENT_BUNDLE = `${root}dist/client/index.mjs`;
export const CLIENT_TYPES = `${root}dist/client/types/client/index.d.ts`;
/** The pty host's own small bundle, started by the daemon beside it (src/terminal/pty-host/main.ts). */
export const HOST_BUNDLE = `${root}dist/terminal/pty-host.mjs`;

function newest(dir) {
  let latest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Whether the bundle exists and no source is newer. */
export function bundleIsFresh(bundle = BUNDLE) {
  try {
    const sourcesAt = newest(sources);
    // The CLI bundle counts as fresh only with the pty host's bundle beside it.
    return statSync(bundle).mtimeMs >= sourcesAt && (bundle !== BUNDLE || statSync(HOST_BUNDLE).mtimeMs >= sourcesAt);
  } catch {
    return false;
  }
}

/** Whether `corral/client` (code and types) exists and no source is newer. */
export function clientIsFresh() {
  return bundleIsFresh(CLIENT_BUNDLE) && bundleIsFresh(CLIENT_TYPES);
}

/** Builds the bundle; concurrent builders each write their own file and rename it into place. */
export async function buildBundle() {
  const { build } = await import('esbuild');
  // The host first: a CLI bundle newer than the sources must always find its host beside it.
  for (const [entry, bundle] of [
    [`${sources}/terminal/pty-host/main.ts`, HOST_BUNDLE],
    [`${sources}/cli/main.ts`, BUNDLE],
  ]) {
    mkdirSync(dirname(bundle), { recursive: true });
    const temporary = `${bundle}.${process.pid}.tmp`;
    await build({
      entryPoints: [entry],
      outfile: temporary,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Loading TypeBox's hundreds of modules took a client command half again as long (+240 ms of
      // 467 at load 7); bundled, its start-up is what it was before the wire moved to TypeBox.
      plugins: [bundleOnly('@sinclair/typebox')],
      logLevel: 'error',
    });
    renameSync(temporary, bundle);
  }
  await buildHookBundle();
}

// `corral report` runs inside agents' hooks, some of them synchronous: its own small bundle, whose
// freshness is checked against the few files it was built from (listed beside it), not all of src/.
export const HOOK_BUNDLE = `${root}dist/cli/hook.mjs`;
const HOOK_INPUTS = `${root}dist/cli/hook.inputs.json`;

/** An esbuild plugin that leaves every package external except `name`. */
function bundleOnly(name) {
  return {
    name: `bundle-only-${name}`,
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => (args.path === name || args.path.startsWith(`${name}/`) ? undefined : { path: args.path, external: true }));
    },
  };
}

export async function buildHookBundle() {
  const { build } = await import('esbuild');
  mkdirSync(`${root}dist/cli`, { recursive: true });
  const temporary = `${HOOK_BUNDLE}.${process.pid}.tmp`;
  const result = await build({
    entryPoints: [`${sources}/cli/report/main.ts`],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The method declarations it names are TypeBox schemas. TypeBox is bundled in and the whole
    // minified: loading the package's hundreds of modules at every hook run cost more (1.66x `node -e
    // 0` in bench/hook.ts against 1.27x to 1.34x so); its start-up is what it was before TypeBox.
    plugins: [bundleOnly('@sinclair/typebox')],
    minify: true,
    logLevel: 'error',
    metafile: true,
    absWorkingDir: root, // inputs are listed relative to it
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !input.includes('node_modules/'))
    .map((input) => `${root}${input}`);
  writeFileSync(`${HOOK_INPUTS}.${process.pid}.tmp`, JSON.stringify(inputs));
  renameSync(`${HOOK_INPUTS}.${process.pid}.tmp`, HOOK_INPUTS);
  renameSync(temporary, HOOK_BUNDLE);
}

/** Whether the hook bundle exists and none of its inputs is newer (a new import edits an input). */
export function hookBundleIsFresh() {
  try {
    const built = statSync(HOOK_BUNDLE).mtimeMs;
    return JSON.parse(readFileSync(HOOK_INPUTS, 'utf8')).every((input) => statSync(input).mtimeMs <= built);
  } catch {
    return false;
  }
}

/** Builds `corral/client`: src/client bundled by esbuild, and its .d.ts files emitted by the TypeScript compiler. */
export async function buildClient() {
  const { build } = await import('esbuild');
  mkdirSync(`${root}dist/client`, { recursive: true });
  const temporary = `${CLIENT_BUNDLE}.${process.pid}.tmp`;
  await build({
    entryPoints: [`${sources}/client/index.ts`],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  const ts = (await import('typescript')).default;
  const program = ts.createProgram([`${sources}/client/index.ts`], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    allowImportingTsExtensions: true,
    declaration: true,
    emitDeclarationOnly: true,
    skipLibCheck: true,
    types: ['node'],
    rootDir: sources,
    outDir: `${root}dist/client/types`,
  });
  const emitted = program.emit();
  const problems = ts.getPreEmitDiagnostics(program).concat(emitted.diagnostics);
  if (emitted.emitSkipped || problems.length > 0) {
    throw new Error(ts.formatDiagnostics(problems, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
  }
  renameSync(temporary, CLIENT_BUNDLE);
}

// `corral web`'s page: src/web/page bundled for browsers (with xterm.js and its styles) into dist/web.
export const WEB_BUNDLE = `${root}dist/web/app.js`;
const WEB_SOURCES = `${sources}/web/page`;

/**
 * Whether the page bundle exists and no source is newer: any of src/, as the page imports beyond its
 * folder (src/base/cells.ts), and a rebuild costs about a second.
 */
export function webIsFresh() {
  try {
    const sourcesAt = newest(sources);
    return statSync(WEB_BUNDLE).mtimeMs >= sourcesAt && statSync(`${root}dist/web/app.css`).mtimeMs >= sourcesAt;
  } catch {
    return false;
  }
}

export async function buildWeb() {
  const { build } = await import('esbuild');
  const folder = `${root}dist/web.${process.pid}.tmp`;
  await build({
    entryPoints: { app: `${WEB_SOURCES}/main.ts` },
    outdir: folder,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: ['chrome110', 'safari16', 'firefox115'],
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
  });
  mkdirSync(`${root}dist/web`, { recursive: true });
  for (const file of ['app.js', 'app.css']) renameSync(`${folder}/${file}`, `${root}dist/web/${file}`);
  rmSync(folder, { recursive: true, force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildBundle();
  await buildClient();
  await buildWeb();
}
