import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { IO_MODULES, SRC, circles, daemonRoomOf, folderOf, importsOf, loadedWith, processUses, ruleTable, sourceFiles, type ImportEdge } from './import-graph.ts';

/** Folders whose code is a pure function of its input: no files, sockets, children or process state. */
const ENGINE = ['base', 'detect', 'arbiter'];

const files = sourceFiles();
const edges: ImportEdge[] = files.flatMap((file) => importsOf(file));
const where = (edge: ImportEdge) => `src/${edge.from}:${edge.line} imports ${edge.specifier}`;

/** The tables of docs/architecture.md: per top folder, per bundle entry and per room of the daemon. */
const folderRules = ruleTable('folder');
const layers = [...folderRules.keys()];
const bundleRules = ruleTable('bundle entry');
const roomRules = ruleTable('daemon room');

/** Whether `edge` is allowed by a row of (may import, types only from, loads lazily), each a list of names that `names` matches. */
function allowed(edge: ImportEdge, row: string[][], matches: (name: string) => boolean): boolean {
  const [values = [], types = [], lazy = []] = row;
  if (values.some(matches)) return true;
  if (edge.typeOnly && types.some(matches)) return true;
  return (edge.dynamic || edge.typeOnly) && lazy.some(matches);
}

/** Circles among the names of a table: a row's every column points at what it names. */
function tableCircles(rules: Map<string, string[][]>): string[][] {
  const tableEdges = [...rules].flatMap(([from, row]) => row.flat().filter((to) => to !== '*' && to !== from).map((to) => ({ from, to, specifier: to, typeOnly: false, dynamic: false, line: 1 })));
  return circles(tableEdges);
}

describe('the import graph of src/', () => {
  it('has one documented layer per top folder, and a folder per documented layer', () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    assert.deepEqual(folders, [...layers].sort(), 'docs/architecture.md names the layers in order; a new top folder goes there too');
  });

  it('imports across top folders only as the folder table of docs/architecture.md allows', () => {
    const refused = edges
      .filter((edge) => edge.to !== null && folderOf(edge.to) !== folderOf(edge.from))
      .filter((edge) => !allowed(edge, folderRules.get(folderOf(edge.from)) ?? [], (name) => name === folderOf(edge.to!)))
      .map(where);
    assert.deepEqual(refused, [], 'a new import across folders goes into the table first, if its paragraph allows it');
    assert.deepEqual(tableCircles(folderRules), [], 'the folder table stands in layers');
  });

  it('imports across the rooms of src/daemon/ only as the daemon room table allows', () => {
    const inDaemon = (path: string) => path.startsWith('daemon/');
    const rooms = new Set(files.map((file) => file.slice(SRC.length + 1)).filter(inDaemon).map(daemonRoomOf));
    assert.deepEqual([...rooms].sort(), [...roomRules.keys()].sort(), 'each room of src/daemon/ has its row, and each row its room');
    const refused = edges
      .filter((edge) => edge.to !== null && inDaemon(edge.from) && inDaemon(edge.to) && daemonRoomOf(edge.from) !== daemonRoomOf(edge.to))
      .filter((edge) => {
        const to = edge.to!.slice('daemon/'.length);
        const matches = (name: string) => name === '*' || name === daemonRoomOf(edge.to!) || name === to;
        return !allowed(edge, roomRules.get(daemonRoomOf(edge.from)) ?? [], matches);
      })
      .map(where);
    assert.deepEqual(refused, []);
    assert.deepEqual(tableCircles(roomRules), [], 'the room table stands in floors');
  });

  it('loads with each bundle entry only the files and packages its row names', () => {
    const byFile = new Map<string, ImportEdge[]>();
    for (const edge of edges) byFile.set(edge.from, [...(byFile.get(edge.from) ?? []), edge]);
    for (const [entry, [places = [], packages = []]] of bundleRules) {
      const loaded = loadedWith(entry, (file) => byFile.get(file) ?? []);
      const inPlace = (file: string) => places.some((place) => (place.endsWith('/') ? file.startsWith(place) : file === place));
      assert.deepEqual(loaded.files.filter((file) => !inPlace(file)), [], `${entry} loads files outside its row`);
      // A package is named by its first part, or its first two when scoped (`@sinclair/typebox/compiler`).
      const packageOf = (name: string) => name.split('/').slice(0, name.startsWith('@') ? 2 : 1).join('/');
      assert.deepEqual(loaded.packages.filter((name) => !packages.includes(packageOf(name))), [], `${entry} loads packages outside its row`);
    }
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
    const edge = (from: string, to: string): ImportEdge => ({ from, to, specifier: to, typeOnly: false, dynamic: false, line: 1 });
    assert.deepEqual(circles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts'), edge('c.ts', 'd.ts')]), [['a.ts', 'b.ts', 'c.ts']]);
    assert.deepEqual(circles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts')]), []);
    assert.ok(processUses(join(SRC, 'daemon/agents/process-detection.ts')).length > 0);
    assert.ok(importsOf(join(SRC, 'cli/commands/daemon.ts')).some((e) => e.to === 'daemon/main.ts' && e.dynamic), 'dynamic import() counts, told apart');
    const row = [['base'], ['terminal'], ['daemon']];
    assert.ok(allowed({ ...edge('detect/a.ts', 'terminal/b.ts'), typeOnly: true }, row, (name) => name === 'terminal'), 'types only: a type import passes');
    assert.ok(!allowed(edge('detect/a.ts', 'terminal/b.ts'), row, (name) => name === 'terminal'), 'types only: a value import is refused');
    assert.ok(!allowed(edge('cli/a.ts', 'daemon/b.ts'), row, (name) => name === 'daemon'), 'lazily: a static import is refused');
    assert.deepEqual(tableCircles(new Map([['a', [['b']]], ['b', [[], ['a']]]])), [['a', 'b']], 'a table whose rows point at each other is a circle');
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
