import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeTempDir } from '../../../harness/daemon.ts';
import { FAKE_CLAUDE, useDaemon } from '../../helpers/session.ts';

/** The policy the policy tests start from: `npm test` allowed by rule 1, `curl` denied by rule 2. */
export const TEST_POLICY = `
# the tests' policy
[[rule]]
name = "tests"
tool = "Bash"
command = 'npm test'
action = "allow"

[[rule]]
name = "no downloads"
command = 'curl .*'
action = "deny"
message = "no downloads here"
`;

/**
 * A daemon (for the describe block calling it) whose config folder holds `policy`, and the fake agent as
 * a program named claude, which the manifest's [identity] names: identified by its process, with no
 * CORRAL_AGENT hint, and started with the hooks per-launch integration adds.
 */
export function usePolicyDaemon(policy = TEST_POLICY) {
  const dir = makeTempDir();
  const configDir = join(dir, 'config', 'corral');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(join(configDir, 'policy.toml'), policy);
  const session = useDaemon({ dir });
  const launcher = join(dir, 'bin', 'claude');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(launcher, `#!${process.execPath}\nimport(${JSON.stringify(pathToFileURL(FAKE_CLAUDE).href)});\n`);
  chmodSync(launcher, 0o755);
  /** Replaces the policy file and has the daemon read it again. */
  const usePolicy = async (text: string) => {
    writeFileSync(join(configDir, 'policy.toml'), text);
    await session.call('server.reloadConfig', {});
  };
  return { dir, configDir, session, launcher, usePolicy };
}
