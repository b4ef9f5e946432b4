// The page calls and listens by the web wire's declarations (src/web/page/rpc.ts): a misnamed method,
// a wrong param or a field its result does not have fails the type check, as in the typed client.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { makeTempDir } from '../../harness/daemon.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * Type-checks each snippet as a page file with the page's own compiler options, all in one run of tsc
 * (a run costs seconds); answers tsc's exit code and its output, whose errors name their file.
 */
function checkPage(snippets: Record<string, string>): { code: number | null; output: string } {
  const dir = makeTempDir('corral-page-types-');
  const files = Object.entries(snippets).map(([name, body]) => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, `import type { PageRpc } from '${join(ROOT, 'src/web/page/rpc.ts')}';\ndeclare const rpc: PageRpc;\n${body}\nexport {};\n`);
    return file;
  });
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: join(ROOT, 'tsconfig.page.json'), include: [], files }));
  const run = spawnSync(process.execPath, [TSC, '--noEmit', '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

test('a page call is typed by its declaration: wrong names, params and fields fail to compile, a misnamed method alone too', () => {
  const checked = checkPage({
    uses: `
export async function use(): Promise<string[]> {
  const board = await rpc.call('board.get');
  const opened = await rpc.call('terminal.open', { target: 'w1:p1' });
  const dismissed = await rpc.call('inbox.dismiss', { target: 'w1:p1', item: 3 });
  rpc.on('board.card', (card) => void card.info.state);
  // @ts-expect-error a method the web wire does not declare
  void rpc.call('board.gett');
  // @ts-expect-error a param its declaration does not have
  void rpc.call('terminal.input', { target: 'w1:p1', text: 'x' });
  // @ts-expect-error a field its result does not have
  void opened.columns;
  // @ts-expect-error a notification the web wire does not declare
  rpc.on('board.cards', () => {});
  return board.cards.map((card) => card.info.id).concat(String(opened.cols), String(dismissed.dismissed));
}`,
    misnamed: `void rpc.call('terminal.opn', { target: 'w1:p1' });`,
  });
  assert.notEqual(checked.code, 0, 'the misnamed method fails the check');
  const errors = checked.output.split('\n').filter((line) => /error TS/.test(line));
  assert.ok(errors.length > 0 && errors.every((line) => line.includes('misnamed.ts')), `every misuse is refused, every right use compiles; only the misnamed call fails:\n${checked.output}`);
  assert.match(checked.output, /terminal\.opn/);
});
