import { CorralError } from '../protocol/errors.ts';
import type { PaneInfo, PaneLifecycle } from '../protocol/methods/pane.ts';
import { inGroup, isGroupTarget } from '../protocol/pane-target.ts';

export interface TargetOptions {
  /** A group keeps only its panes in these lifecycles; one named pane is never filtered (the daemon says what is wrong with it). */
  states?: readonly PaneLifecycle[];
  /** The act takes exactly one pane (named here for the message): a group that names more is refused, listing them. */
  one?: string;
}

function label(pane: PaneInfo): string {
  return pane.name ? `${pane.id} (${pane.name})` : pane.id;
}

/**
 * The panes a target names, by id, in creation order: the target itself when it names one pane, else
 * every pane of its group (`@W`, or a pattern with `*` or `?` over names and ids). A group that names
 * no pane fails with `pane_not_found`; with `one`, a group that names more than one fails with
 * `invalid_params` listing them (`data.matches`), so that a one-pane act never picks one at random.
 */
export async function resolveTargets(
  target: string,
  listPanes: () => Promise<readonly PaneInfo[]>,
  options: TargetOptions = {},
): Promise<string[]> {
  if (!isGroupTarget(target)) return [target];
  const states = options.states;
  const panes = (await listPanes()).filter((pane) => inGroup(target, pane) && (!states || states.includes(pane.state)));
  if (panes.length === 0) {
    const which = states ? `${states.join(' or ')} ` : '';
    throw new CorralError('pane_not_found', `no ${which}pane matches "${target}"; run \`corral pane list\``, { target });
  }
  if (options.one !== undefined && panes.length > 1) {
    const matches = panes.map((pane) => pane.id);
    throw new CorralError(
      'invalid_params',
      `"${target}" names ${panes.length} panes (${panes.map(label).join(', ')}); ${options.one} takes one: name it by id or name, or narrow the pattern`,
      { field: 'target', target, matches },
    );
  }
  return panes.map((pane) => pane.id);
}
