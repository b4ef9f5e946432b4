import { CorralError } from '../protocol/errors.ts';
import { PANE_LIST } from '../protocol/methods/pane.ts';
import { inGroup, isGroupTarget } from '../protocol/pane-target.ts';
import { withDaemon, type DaemonClient } from './client.ts';
import { printJson, printText } from './output.ts';

/**
 * The panes a command's target names, by id: the target itself, or every pane of a group (`@W`, a
 * pattern with `*` or `?`), in creation order; `running` keeps only running panes. A group that
 * names none fails with `pane_not_found`.
 */
export async function targetsOf(client: DaemonClient, target: string, options: { running?: boolean } = {}): Promise<string[]> {
  if (!isGroupTarget(target)) return [target];
  const { panes } = await client.call(PANE_LIST, {});
  const ids = panes.filter((pane) => inGroup(target, pane) && (!options.running || pane.state === 'running')).map((pane) => pane.id);
  if (ids.length === 0) throw new CorralError('pane_not_found', `no ${options.running ? 'running ' : ''}pane matches "${target}"; run \`corral pane list\``, { target });
  return ids;
}

/**
 * Runs a one-pane command on each pane a target names, in turn (the first error stops it). One pane
 * prints as the command always did; a group prints each pane's output under `==> ID <==`, and with
 * --json an array of `{id, result}`.
 */
export async function forEachTarget<T>(
  socket: string,
  target: string,
  json: boolean,
  run: (client: DaemonClient, id: string) => Promise<T>,
  print: (result: T, id: string) => void,
  options: { running?: boolean } = {},
): Promise<void> {
  const group = isGroupTarget(target);
  const results = await withDaemon(socket, async (client) => {
    const done: { id: string; result: T }[] = [];
    for (const id of await targetsOf(client, target, options)) done.push({ id, result: await run(client, id) });
    return done;
  });
  if (!group) {
    const only = results[0]!;
    return json ? printJson(only.result) : print(only.result, only.id);
  }
  if (json) return printJson(results);
  for (const { id, result } of results) {
    printText(`==> ${id} <==`);
    print(result, id);
  }
}
