import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../method.ts';
import { paneTarget } from '../pane-target.ts';
import { Literals, Nullable, STRICT } from '../schema.ts';

/** Bounds of what a hook asks about: a command as the agent would run it, a path. */
export const HOOK_REQUEST_LIMITS = { tool: 128, command: 65536, path: 4096 } as const;

/** The policy's answer to a hook: `allow` or `deny` for the agent to take, or null: the agent shows its dialog. */
export const PolicyHookAnswer = Type.Object({
  behavior: Nullable(Literals(['allow', 'deny'])),
  message: Nullable(Type.String({ description: "A deny rule's message, for the agent." })),
  reason: Type.String({ description: 'Why: the deciding rule, why the person decides, or the stable code of a refused caller (`not_in_pane`, `not_under_agent`, ...).' }),
});
export type PolicyHookAnswer = Static<typeof PolicyHookAnswer>;

export const POLICY_HOOK_REQUEST = defineMethod({
  name: 'policy.hookRequest',
  summary:
    "An agent's permission hook asks the policy about one tool request of its own pane (docs/policy.md, the hook path): allow or deny for the agent to take, or nothing and the agent shows its dialog. Bound to the pane as a hook report is (docs/reporting.md).",
  params: Type.Object(
    {
      target: paneTarget,
      source: Type.String({ minLength: 1, maxLength: 64 }),
      agent: Type.String({ minLength: 1, maxLength: 64 }),
      tool: Type.String({ minLength: 1, maxLength: HOOK_REQUEST_LIMITS.tool, description: "The tool as the agent names it in its hook's payload (`Bash`, `Edit`, `run_shell_command`)." }),
      command: Type.Optional(Type.String({ maxLength: HOOK_REQUEST_LIMITS.command, description: 'The command a shell tool runs, exactly as the payload gives it.' })),
      path: Type.Optional(Type.String({ maxLength: HOOK_REQUEST_LIMITS.path, description: 'The file a file tool acts on.' })),
      pid: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 })),
    },
    STRICT,
  ),
  result: PolicyHookAnswer,
  errors: ['pane_not_found'],
});
