import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { importsOf } from './import-graph.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Which top folders each tree of the checkout may import (docs/architecture.md, `harness/`): tests and
 * benches share the harness and never each other; the harness serves both and imports neither.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  test: ['src', 'harness', 'test', 'agent-clis', 'bin', 'scripts'],
  bench: ['src', 'harness', 'bench'],
  harness: ['src', 'harness'],
};

function filesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesIn(path);
    return /\.(ts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

const fromRoot = (path: string) => relative(ROOT, path).split(sep).join('/');

/** Every relative import of `file` that lands in a top folder outside `allowed`. */
function crossings(file: string, allowed: readonly string[]): string[] {
  return importsOf(file)
    .filter((edge) => edge.specifier.startsWith('.'))
    .map((edge) => ({ edge, target: fromRoot(resolve(dirname(file), edge.specifier)) }))
    .filter(({ target }) => !allowed.includes(target.split('/')[0]!))
    .map(({ edge, target }) => `${fromRoot(file)}:${edge.line} imports ${target}`);
}

describe('tests, benches and the harness they share', () => {
  for (const tree of Object.keys(MAY_IMPORT)) {
    it(`keeps ${tree}/ to ${MAY_IMPORT[tree]!.join(', ')}`, () => {
      assert.deepEqual(filesIn(join(ROOT, tree)).flatMap((file) => crossings(file, MAY_IMPORT[tree]!)), []);
    });
  }

  it('finds a crossing when there is one', () => {
    assert.ok(crossings(join(ROOT, 'bench/lib/event-waiter.ts'), ['bench']).some((line) => line.includes('imports src/')));
  });
});

describe('the daemon tests, room by room', () => {
  it('keeps each in test/daemon/<room>/, where <room> is a folder of src/daemon/', () => {
    const rooms = readdirSync(join(ROOT, 'src/daemon'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    const misplaced = filesIn(join(ROOT, 'test/daemon'))
      .map(fromRoot)
      .filter((file) => !rooms.includes(file.split('/')[2]!) || file.split('/').length < 4);
    assert.deepEqual(misplaced, []);
  });
});
