import type { Command } from 'commander';
import { endpointFor, hostByName, LOCAL_HOST, splitHostTarget } from '../client/index.ts';
import { UsageError } from './print-error.ts';

/** Commands whose targets may be on several hosts at once: they take `TARGET@HOST` themselves (agent wait). */
const FLEET_COMMANDS = new Set(['agent wait']);
/** Commands that hold a terminal or a stream of bytes to a pane: through another host they run with `corral --host`. */
const LOCAL_ONLY = new Set(['attach', 'pane record']);

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/**
 * Run before each command's action (commander's preAction): a `TARGET@HOST` argument sends the
 * command to that host's daemon through ssh (the `[[hosts]]` of config.toml; docs/fleet.md), with
 * the target as the host knows it. The command's other arguments are never read as targets.
 */
export function routeHostTargets(action: Command): void {
  const path = pathOf(action);
  if (FLEET_COMMANDS.has(path)) return;
  const positions = action.registeredArguments.flatMap((argument, index) => (argument.name() === 'target' || argument.name() === 'targets' ? [index] : []));
  const hosts = new Set<string>();
  for (const index of positions) {
    const value = action.processedArgs[index] as string | string[] | undefined;
    for (const text of Array.isArray(value) ? value : value !== undefined ? [value] : []) {
      const { host } = splitHostTarget(text);
      if (host !== null) hosts.add(host);
    }
  }
  if (hosts.size === 0) return;
  // `--host` takes the [[hosts]] name as the whole entry, as TARGET@HOST does.
  if (LOCAL_ONLY.has(path)) throw new UsageError(`${path} takes no TARGET@HOST: run it on the host with \`corral --host ${[...hosts][0]} ${path} TARGET\` (docs/remote.md)`);
  if (hosts.size > 1) throw new UsageError(`the targets are on ${hosts.size} hosts (${[...hosts].join(', ')}); ${path} acts on one host at a time`);
  const options = action.optsWithGlobals() as { socket?: string };
  const spec = hostByName([...hosts][0]!, { ...(options.socket !== undefined ? { socket: options.socket } : {}) });
  for (const index of positions) {
    const value = action.processedArgs[index] as string | string[] | undefined;
    // A target of this host is its bare name there; one with no host keeps meaning this machine's, so it is refused above unless it is the same host.
    const bare = (text: string) => {
      const split = splitHostTarget(text);
      if (split.host === null && spec.name !== LOCAL_HOST) throw new UsageError(`"${text}" names no host while another target is on ${spec.name}; ${path} acts on one host at a time`);
      return split.target;
    };
    if (Array.isArray(value)) action.processedArgs[index] = value.map(bare);
    else if (value !== undefined) action.processedArgs[index] = bare(value);
  }
  action.setOptionValue('targetHost', endpointFor(spec));
}
