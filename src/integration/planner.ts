import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ManifestSet } from '../manifest-store/manifest-set.ts';
import { corralCommand } from './corral-command.ts';
import type { Logger } from 'pino';
import { agentLaunch, integrate } from './integrate.ts';
import type { Launch } from './launch.ts';
import { isRootOwnedPath } from './root-owned.ts';

/** A launch as the pane will run it, and what to undo when the pane is gone. */
interface PlannedLaunch {
  launch: Launch;
  /** e.g. `claude: --settings with 9 hooks`; null when nothing was added. */
  integration: string | null;
  dispose(): void;
}

export type LaunchPlanner = (launch: Launch, paneId: string, integrate: boolean) => PlannedLaunch;

/**
 * Per-launch integration (docs/reporting.md): when a pane starts an agent whose manifest declares an
 * `[integration]`, its hooks are added to this launch only. Files it needs live in `stateDir`, one
 * folder per pane, removed with the pane. A mechanism that fails leaves the launch untouched.
 */
export function launchPlanner(options: { manifests: () => ManifestSet; stateDir: string; enabled: boolean; log: Logger }): LaunchPlanner {
  return (launch, paneId, wanted) => {
    const untouched: PlannedLaunch = { launch, integration: null, dispose: () => {} };
    if (!options.enabled || !wanted) return untouched;
    const found = agentLaunch(launch, options.manifests().all().map((manifest) => manifest.spec));
    const spec = found?.spec;
    if (found == null || spec?.integration == null) return untouched;
    const dir = launchDir(options.stateDir, paneId);
    const dispose = () => rmSync(dir, { recursive: true, force: true });
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const hookArgv = [...corralCommand(), 'report', '--hook', spec.integration.hook];
      const planned = integrate(found.inner, { spec: spec.integration, hookArgv, dir, userEnv: process.env });
      if (planned === null) {
        dispose();
        return untouched;
      }
      const { files: _files, summary, ...integrated } = planned;
      options.log.info({ pane: paneId, agent: spec.id, integration: summary }, 'agent hooks added to the launch');
      return { launch: found.wrap(integrated), integration: `${spec.id}: ${summary}`, dispose };
    } catch (error) {
      options.log.warn({ err: error, pane: paneId, agent: spec.id }, 'agent hooks could not be added; launching without them');
      dispose();
      return untouched;
    }
  };
}

/** Where a daemon running as root keeps launch files when its socket's folder is not root's alone. */
const ROOT_LAUNCH_BASE = '/run/corral';

/**
 * The folder of a daemon's launch files: beside its socket (`<socket>.hooks`). A daemon running as
 * root whose socket lies below a folder others can write (/tmp) uses /run/corral/hooks-<hash> instead,
 * so that an agent reading its settings only from root's own folders (Gemini CLI) still gets them.
 */
export function launchFilesDir(socketPath: string, uid = process.getuid?.()): string {
  const beside = `${socketPath}.hooks`;
  if (uid !== 0 || isRootOwnedPath(dirname(socketPath)) || !isRootOwnedPath(dirname(ROOT_LAUNCH_BASE))) return beside;
  return join(ROOT_LAUNCH_BASE, `hooks-${createHash('sha256').update(socketPath).digest('hex').slice(0, 12)}`);
}

/** The folder of one pane's launch files. */
export function launchDir(stateDir: string, paneId: string): string {
  return join(stateDir, paneId.replace(/[^A-Za-z0-9_-]/g, '_'));
}

/**
 * Panes outlive their daemon (in the pty host), and so do their launch files, which some agents read
 * again later: a new daemon keeps the folders of the panes it took back and removes the others.
 */
export function pruneLaunchDirs(stateDir: string, livePaneIds: readonly string[]): void {
  const keep = new Set(livePaneIds.map((id) => launchDir(stateDir, id)));
  let entries: string[];
  try {
    entries = readdirSync(stateDir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const dir = join(stateDir, entry);
    if (!keep.has(dir)) rmSync(dir, { recursive: true, force: true });
  }
}
