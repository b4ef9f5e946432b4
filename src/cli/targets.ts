import { resolveTargets, type DaemonAddress, type TargetOptions } from '../client/index.ts';
import { PANE_LIST, type PaneLifecycle } from '../protocol/methods/pane.ts';
import { isGroupTarget } from '../protocol/pane-target.ts';
import { withDaemon, type DaemonConnection } from './with-daemon.ts';
import { printJson, printText } from './output.ts';

/** A group's panes a command can act on: running ones (send, prompt, resize), or those that can start again (respawn). */
export const RUNNING: readonly PaneLifecycle[] = ['running'];
export const STOPPED: readonly PaneLifecycle[] = ['lost', 'exited'];

/** The panes a command's target names, by id (`resolveTargets` of `corral/client`, the one resolver). */
export function targetsOf(client: DaemonConnection, target: string, options: Pick<TargetOptions, 'states'> = {}): Promise<string[]> {
  return resolveTargets(target, async () => (await client.call(PANE_LIST, {})).panes, options);
}

/**
 * The one pane a command that acts on exactly one takes (`what` names the command for the message):
 * a name, an id, or a group that names exactly one pane; a group of several is refused, listing them.
 */
export async function oneTarget(client: DaemonConnection, target: string, what: string, options: Pick<TargetOptions, 'states'> = {}): Promise<string> {
  const [id] = await resolveTargets(target, async () => (await client.call(PANE_LIST, {})).panes, { ...options, one: what });
  return id!;
}

/**
 * Runs a one-pane command on each pane a target names, in turn (the first error stops it). One pane
 * prints as the command always did; a group prints each pane's output under `==> ID <==`, and with
 * --json an array of `{id, result}`. `states` keeps only a group's panes in those lifecycles.
 */
export async function forEachTarget<T>(
  daemon: DaemonAddress,
  target: string,
  json: boolean,
  run: (client: DaemonConnection, id: string) => Promise<T>,
  print: (result: T, id: string) => void,
  options: Pick<TargetOptions, 'states'> = {},
): Promise<void> {
  const group = isGroupTarget(target);
  const results = await withDaemon(daemon, async (client) => {
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
