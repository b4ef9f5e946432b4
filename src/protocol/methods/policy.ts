import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../method.ts';
import { paneTarget } from '../pane-target.ts';
import { AgentPrompt } from '../prompt.ts';
import { Literals, Nullable, STRICT } from '../schema.ts';

/** The rule that decided, as `agent explain` names it: `rule N (file:line)`. */
export const PolicyRuleRef = Type.Object(
  { number: Type.Number(), name: Nullable(Type.String()), file: Type.String(), line: Type.Number() },
  { $id: 'PolicyRuleRef', description: 'The rule that decided: its number over the whole policy, its name, and where it is written.' },
);

/** One decision of the approval policy on one prompt (docs/policy.md). */
export const PolicyDecision = Type.Object(
  {
    ts: Type.Number({ description: 'When it was decided (ms since the epoch).' }),
    pane: Type.Object({ id: Type.String(), name: Nullable(Type.String()) }),
    agent: Nullable(Type.String()),
    promptId: Type.String({ description: 'The prompt decided (AgentPrompt.id).' }),
    action: Literals(['allow', 'deny', 'ask']),
    choice: Nullable(Type.String(), { description: 'The choice an allow or deny takes, by id; null for ask.' }),
    rule: Nullable(PolicyRuleRef),
    message: Nullable(Type.String(), { description: "A deny rule's message: what the agent is told where it takes one (the hook path); the screen path types only the choice." }),
    reason: Type.String({ description: 'Why, for a person.' }),
    source: Literals(['screen', 'hook'], { description: '`screen`: the choice typed into the pane; `hook`: answered through the agent\'s own hook, nothing typed.' }),
    mode: Literals(['on', 'dry-run', 'paused']),
    answered: Type.Boolean({ description: 'The choice was typed (or given to the hook) and the dialog it answered left.' }),
    outcome: Nullable(Type.String(), { description: "The answer's outcome (`left`, `next`, `pending`), or the error code that kept it from being typed (`prompt_changed`, `choice_not_offered`, ...); null when nothing was to be typed." }),
    subject: Type.Object({ tool: Nullable(Type.String()), command: Nullable(Type.String()), path: Nullable(Type.String()) }),
  },
  { $id: 'PolicyDecision', description: 'One decision of the approval policy on one prompt.' },
);
export type PolicyDecision = Static<typeof PolicyDecision>;

export const PolicyStatus = Type.Object(
  {
    active: Type.Boolean({ description: 'Rules are loaded, the mode is not off and the policy is not paused: prompts may be answered (in dry-run: decided and logged).' }),
    mode: Literals(['on', 'dry-run', 'off']),
    paused: Type.Boolean(),
    files: Type.Array(Type.String()),
    rules: Type.Number(),
    loopLimit: Type.Number({ description: 'Automatic answers per pane in a minute before the policy asks.' }),
    log: Nullable(Type.String(), { description: 'The audit log file.' }),
  },
  { $id: 'PolicyStatus' },
);
export type PolicyStatus = Static<typeof PolicyStatus>;

export const POLICY_STATUS = defineMethod({
  name: 'policy.status',
  summary: 'The approval policy: its files, rule count, mode, whether it is paused and where it logs.',
  params: Type.Object({}, STRICT),
  result: PolicyStatus,
  errors: [],
});

export const POLICY_CHECK = defineMethod({
  name: 'policy.check',
  summary: "Which rule would decide the pane's current prompt and why; decides nothing and types nothing.",
  params: Type.Object({ target: paneTarget }, STRICT),
  result: Type.Object({
    prompt: Nullable(AgentPrompt),
    decision: Nullable(Type.Omit(PolicyDecision, ['ts', 'answered', 'outcome', 'source'])),
    last: Nullable(PolicyDecision, { description: "The policy's last decision on the pane, if any." }),
  }),
  errors: ['pane_not_found'],
});

export const POLICY_LOG = defineMethod({
  name: 'policy.log',
  summary: 'The newest decisions of the audit log, oldest first; a pane narrows them to its own.',
  params: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })), target: Type.Optional(paneTarget) }, STRICT),
  result: Type.Object({ decisions: Type.Array(PolicyDecision) }),
  errors: ['pane_not_found'],
});

export const POLICY_PAUSE = defineMethod({
  name: 'policy.pause',
  summary: 'The kill switch: no prompt is answered by the policy until policy.resume (every prompt asks the person).',
  params: Type.Object({}, STRICT),
  result: PolicyStatus,
  errors: [],
});

export const POLICY_RESUME = defineMethod({
  name: 'policy.resume',
  summary: 'Lifts policy.pause: the policy answers again the prompts that appear from now.',
  params: Type.Object({}, STRICT),
  result: PolicyStatus,
  errors: [],
});
