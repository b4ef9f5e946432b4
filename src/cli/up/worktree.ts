import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

/** A git command that takes longer than this is taken as stuck (a hang guard on `git worktree add`). */
const GIT_TIMEOUT_MS = 60_000;

/**
 * An agent's own worktree: beside the repository its folder lies in, `<repo>.worktrees/<agent>`, on
 * the branch `corral/<agent>` made from `from`. The agent starts in the same folder of it as it would
 * have of the repository.
 */
export interface WorktreePlan {
  repo: string;
  path: string;
  branch: string;
  from: string;
  /** The agent's folder inside the worktree. */
  cwd: string;
}

/** Why a worktree could not be planned or made; the agent is not started. */
export class WorktreeError extends Error {
  readonly code = 'worktree_failed';
}

function git(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, timeout: GIT_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new WorktreeError(`git ${args.join(' ')} in ${cwd} failed: ${(stderr || error.message).trim().split('\n')[0]}`));
      else resolve(stdout);
    });
  });
}

/** Where the worktree of `agent` goes, read from git without changing anything. */
export async function planWorktree(cwd: string, agent: string, from: string): Promise<WorktreePlan> {
  if (!existsSync(cwd)) throw new WorktreeError(`${cwd} does not exist: a worktree is made from the git repository the agent's cwd lies in`);
  const repo = (await git(['rev-parse', '--show-toplevel'], cwd).catch(() => {
    throw new WorktreeError(`${cwd} is not in a git repository: a worktree is made from the repository the agent's cwd lies in`);
  })).trim();
  const path = join(dirname(repo), `${basename(repo)}.worktrees`, agent);
  return { repo, path, branch: `corral/${agent}`, from, cwd: join(path, relative(repo, cwd)) };
}

/** Makes the planned worktree, or keeps it when it is there already; answers which. */
export async function makeWorktree(plan: WorktreePlan): Promise<'made' | 'kept'> {
  const listed = (await git(['worktree', 'list', '--porcelain'], plan.repo))
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length));
  if (listed.includes(plan.path)) return 'kept';
  if (existsSync(plan.path)) throw new WorktreeError(`${plan.path} exists and is not a worktree of ${plan.repo}: move it away, or name another agent`);
  const branchExists = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${plan.branch}`], plan.repo).then(
    () => true,
    () => false,
  );
  // A branch left by an earlier worktree of this agent is checked out again, with its commits.
  if (branchExists) await git(['worktree', 'add', '--', plan.path, plan.branch], plan.repo);
  else await git(['worktree', 'add', '-b', plan.branch, '--', plan.path, plan.from], plan.repo);
  return 'made';
}
