import { DEFAULT_WORKSPACE, type PaneDetail } from '../../protocol/methods/pane.ts';

/** What `corral up` starts for one agent on this daemon: its file entry with paths resolved. */
export interface ResolvedLaunch {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  workspace?: string;
}

/**
 * How a pane differs from its declaration, one line per fact; none when it runs as declared. Read from
 * the spawn facts the daemon keeps with the pane (PaneDetail: command, args, cwd, workspace, env), which
 * its state file carries across a restart. A secret's value is never kept (docs/operations.md,
 * "Secrets"), so a secret key counts as the same when it is there at all. PATH, when the file does not
 * set it, is the calling shell's (as with `corral pane spawn`) and is not compared.
 */
export function differences(launch: ResolvedLaunch, pane: PaneDetail): string[] {
  const found: string[] = [];
  const running = [pane.command, ...pane.args];
  const declared = [launch.command, ...launch.args];
  if (JSON.stringify(running) !== JSON.stringify(declared)) found.push(`command: ${JSON.stringify(declared)}, running ${JSON.stringify(running)}`);
  if (pane.cwd !== launch.cwd) found.push(`cwd: ${launch.cwd}, running in ${pane.cwd}`);
  const workspace = launch.workspace ?? DEFAULT_WORKSPACE;
  if (pane.workspace !== workspace) found.push(`workspace: ${workspace}, running in ${pane.workspace}`);
  const dropped = new Set(pane.droppedEnv ?? []);
  const keys = new Set([...Object.keys(launch.env), ...Object.keys(pane.env), ...dropped]);
  if (launch.env.PATH === undefined) keys.delete('PATH');
  for (const key of [...keys].sort()) {
    const want = launch.env[key];
    if (want === undefined) found.push(`env: ${key} is not declared, running with it`);
    else if (dropped.has(key)) continue;
    else if (pane.env[key] === undefined) found.push(`env: ${key} is declared, running without it`);
    else if (pane.env[key] !== want) found.push(`env: ${key} has another value`); // values may be secrets: never printed
  }
  return found;
}
