/** The environment switch that turns on inference from child process groups. */
const PROCESS_DETECTION_ENV = 'CORRAL_PROCESS_DETECTION';
const CHILD_GROUPS = 'child-groups';

/** Read at each use, so the daemon follows its environment as it was when it started the check. */
export function childGroupsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[PROCESS_DETECTION_ENV] === CHILD_GROUPS;
}
