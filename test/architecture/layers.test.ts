import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { IO_MODULES, SRC, circles, documentedLayers, folderOf, importsOf, processUses, sourceFiles, type ImportEdge } from './import-graph.ts';

/** Folders whose code is a pure function of its input: no files, sockets, children or process state. */
const ENGINE = ['base', 'detect', 'arbiter'];

const files = sourceFiles();
const edges: ImportEdge[] = files.flatMap((file) => importsOf(file));
const layers = documentedLayers();
const where = (edge: ImportEdge) => `src/${edge.from}:${edge.line} imports ${edge.specifier}`;

describe('the import graph of src/', () => {
  it('has one documented layer per top folder, and a folder per documented layer', () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    assert.deepEqual(folders, [...layers].sort(), 'docs/architecture.md names the layers in order; a new top folder goes there too');
  });

  it('never imports up the layer order of docs/architecture.md', () => {
    const up = edges
      .filter((edge) => edge.to !== null && layers.indexOf(folderOf(edge.to)) > layers.indexOf(folderOf(edge.from)))
      .map(where);
    assert.deepEqual(up, [], `layers, lowest first: ${layers.join(' < ')}`);
  });

  it('resolves every relative import to a file in src/', () => {
    const dangling = edges.filter((edge) => edge.to !== null && !existsSync(join(SRC, edge.to))).map(where);
    assert.deepEqual(dangling, []);
  });

  it('keeps the engine folders free of I/O: no file, socket, child or process module, and no process global', () => {
    const engine = (path: string) => ENGINE.includes(folderOf(path));
    const io = edges.filter((edge) => engine(edge.from) && IO_MODULES.has(edge.specifier.replace(/^node:/, ''))).map(where);
    assert.deepEqual(io, []);
    const uses = files
      .filter((file) => engine(file.slice(SRC.length + 1)))
      .flatMap((file) => processUses(file).map((line) => `${file.slice(SRC.length + 1)}:${line} uses process`));
    assert.deepEqual(uses, []);
  });

  it('closes no circle, counting imports of types too', () => {
    assert.deepEqual(circles(edges), []);
  });

  it('enters a top folder that has an index.ts only through it', () => {
    const barrels = layers.filter((folder) => existsSync(join(SRC, folder, 'index.ts')));
    const bypass = edges
      .filter((edge) => edge.to !== null && barrels.includes(folderOf(edge.to)) && folderOf(edge.from) !== folderOf(edge.to))
      .filter((edge) => edge.to !== `${folderOf(edge.to!)}/index.ts`)
      .map(where);
    assert.deepEqual(bypass, []);
  });
});

describe('the import-graph checks themselves', () => {
  it('find a circle and a process use when there is one', () => {
    const edge = (from: string, to: string): ImportEdge => ({ from, to, specifier: to, typeOnly: false, line: 1 });
    assert.deepEqual(circles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts'), edge('c.ts', 'd.ts')]), [['a.ts', 'b.ts', 'c.ts']]);
    assert.deepEqual(circles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts')]), []);
    assert.ok(processUses(join(SRC, 'daemon/agents/process-detection.ts')).length > 0);
    assert.ok(importsOf(join(SRC, 'cli/commands/daemon.ts')).some((e) => e.to === 'daemon/main.ts'), 'dynamic import() counts');
  });
});

describe('docs/architecture.md', () => {
  it('has one paragraph per top folder of src/ and names every folder below them', () => {
    const doc = readFileSync(join(SRC, '../docs/architecture.md'), 'utf8');
    const missing: string[] = [];
    const walk = (dir: string, path: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (!entry.isDirectory()) continue;
        const here = path === '' ? entry.name : `${path}/${entry.name}`;
        const named = path === '' ? doc.includes(`**\`src/${entry.name}/\`**`) : new RegExp(`[\`/]${entry.name}/\``).test(doc);
        if (!named) missing.push(`src/${here}/`);
        walk(join(dir, entry.name), here);
      }
    };
    walk(SRC, '');
    assert.deepEqual(missing, [], 'a folder in src/ gets its paragraph (or, below a top folder, its line) in docs/architecture.md');
  });
});
