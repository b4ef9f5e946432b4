/** Why a policy file was refused, with its file and 1-based line; the whole policy is then kept as it was. */
export class PolicyError extends Error {
  readonly code = 'policy_invalid';

  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly problem: string,
  ) {
    super(`${file}${line !== null ? `:${line}` : ''}: ${problem}; fix it (docs/policy.md): until then the policy it belongs to is not changed`);
    this.name = 'PolicyError';
  }
}
