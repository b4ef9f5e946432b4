import { loadPolicyFile } from '../../policy/load-policy.ts';
import { PolicyError } from '../../policy/policy-error.ts';
import { UsageError } from '../print-error.ts';
import { offlineManifests } from './manifest-source.ts';
import { runPolicyTest, type PolicyTestEntry } from './policy-test.ts';

/** `corral policy test FILE RECORDINGS...`: the policy file read strictly, then run over the recordings. */
export async function runPolicyFileTest(file: string, recordings: readonly string[], agent: string | undefined): Promise<PolicyTestEntry[]> {
  let policy;
  try {
    policy = loadPolicyFile(file);
  } catch (error) {
    if (error instanceof PolicyError) throw new UsageError(error.message);
    throw error;
  }
  return runPolicyTest(policy, recordings, { ...(agent !== undefined ? { agent } : {}), manifests: offlineManifests() });
}
