import type { AgentPrompt, PromptChoice, PromptKind } from '../protocol/prompt.ts';
import { defaultChoice } from './choice-roles.ts';
import { isCompound } from './compound.ts';
import type { Policy, PolicyAction, PolicyRule } from './policy-spec.ts';
import { promptSubject, type PromptSubject } from './subject.ts';

/** How the pane's agent was identified: only `process` (its program, read from /proc) lets a policy answer. */
export type IdentityBasis = 'process' | 'hint' | 'report' | 'none';

/** What a decision is taken on: the pane, its agent and the prompt it shows. */
export interface DecisionInput {
  agent: string | null;
  identity: IdentityBasis;
  host: string;
  workspace: string;
  pane: { id: string; name: string | null };
  cwd: string | null;
  prompt: AgentPrompt;
}

/** The rule that decided, as logs and `agent explain` name it: `rule N (file:line)`. */
export interface DecidingRule {
  number: number;
  name: string | null;
  file: string;
  line: number;
}

export interface Decision {
  action: PolicyAction;
  rule: DecidingRule | null;
  /** The choice an allow or deny takes, by id; null for ask. */
  choice: string | null;
  message: string | null;
  /** Why, for a person. */
  reason: string;
  subject: PromptSubject;
}

const ASKED_ALWAYS = new Set(['trust', 'auth']);

/**
 * Decides a prompt: the safety no rule turns off first (a complete prompt, an agent its process
 * identifies), then the rules in order, the first that matches deciding, `ask` when none does. An
 * allow or deny whose choice the prompt does not offer asks instead. Pure.
 */
export function decide(policy: Policy, input: DecisionInput): Decision {
  const subject = promptSubject(input.prompt);
  if (!input.prompt.complete) return asking(subject, `the prompt is not complete (${input.prompt.incomplete ?? 'not read whole'}): no policy answers it`);
  return byRules(policy, input, input.prompt.kind, subject, (rule) => chosen(rule, input.prompt));
}

/** What a hook's tool request is decided on (the hook path): no dialog, the subject exact from its payload. */
export type RequestInput = Omit<DecisionInput, 'prompt'> & { subject: PromptSubject };

/**
 * Decides a permission a hook asks about before its agent draws the dialog: as `decide` does, but an
 * allow or deny is the hook's answer itself (its choice `allow` or `deny`), never a choice of a dialog.
 * Null when the first rule that matches names a choice: only the dialog offers one, so the screen path
 * decides it. Pure.
 */
export function decideRequest(policy: Policy, input: RequestInput): Decision | null {
  let named = false;
  const decision = byRules(policy, input, 'permission', input.subject, (rule) => {
    if (rule.choice === null) return { id: rule.action };
    named = true;
    return 'it names a choice of the dialog';
  });
  return named ? null : decision;
}

function asking(subject: PromptSubject, reason: string, rule: PolicyRule | null = null): Decision {
  return { action: 'ask', rule: rule && ruleRef(rule), choice: null, message: null, reason, subject };
}

/** The identity check, then the rules in order; `pick` names the choice a matching allow or deny takes, or why it cannot. */
function byRules(policy: Policy, input: Omit<DecisionInput, 'prompt'>, kind: PromptKind, subject: PromptSubject, pick: (rule: PolicyRule) => { id: string } | string): Decision {
  const ask = (reason: string, rule: PolicyRule | null = null) => asking(subject, reason, rule);
  if (input.identity !== 'process') {
    return ask(`the agent is identified by ${input.identity === 'hint' ? 'a CORRAL_AGENT hint' : input.identity === 'report' ? 'its own report' : 'nothing'}, not by its process: any program in a pane can draw a dialog`);
  }
  const skipped: string[] = [];
  for (const rule of policy.rules) {
    if (!matches(rule, input, kind, subject)) continue;
    if (rule.action === 'allow' && !rule.compound && subject.command !== null && isCompound(subject.command)) {
      skipped.push(`rule ${rule.number} allows no compound command (compound = true would)`);
      continue;
    }
    // A permission whose command could not be read alone may be compound: no plain allow takes it.
    if (rule.action === 'allow' && !rule.compound && kind === 'permission' && subject.command === null && (subject.tool === null || subject.tool === 'bash')) {
      skipped.push(`rule ${rule.number} allows no command it cannot read alone`);
      continue;
    }
    const name = `rule ${rule.number} (${rule.file}:${rule.line})${rule.name ? ` "${rule.name}"` : ''}`;
    if (rule.action === 'ask') return ask(`${name} asks`, rule);
    const choice = pick(rule);
    if (typeof choice === 'string') return ask(`${name} would ${rule.action}, but ${choice}`, rule);
    return { action: rule.action, rule: ruleRef(rule), choice: choice.id, message: rule.message, reason: `${name} ${rule.action === 'allow' ? 'allows' : 'denies'}`, subject };
  }
  return ask(`no rule matched${skipped.length > 0 ? ` (${skipped.join('; ')})` : ''}: the person decides`);
}

function ruleRef(rule: PolicyRule): DecidingRule {
  return { number: rule.number, name: rule.name, file: rule.file, line: rule.line };
}

/** The choice a matching rule takes, or why it cannot take one. Allow-always only when the rule names it. */
function chosen(rule: PolicyRule, prompt: AgentPrompt): PromptChoice | string {
  if (rule.choice !== null) {
    const named = prompt.choices.find((choice) => choice.id === rule.choice);
    if (named === undefined) return `the prompt offers no choice "${rule.choice}" (its choices: ${prompt.choices.map((c) => c.id).join(', ') || 'none'})`;
    if (named.keys.length === 0) return `its choice "${rule.choice}" has no key Corral knows`;
    return named;
  }
  if (prompt.freeText) return 'the prompt takes free text';
  const role = rule.action === 'allow' ? 'allow-once' : 'deny';
  return defaultChoice(prompt, role) ?? `the prompt has no one ${role} choice to take by default (${prompt.choices.map((c) => `${c.id}: ${c.role}`).join(', ') || 'no choices'}); name one with "choice"`;
}

function matches(rule: PolicyRule, input: Omit<DecisionInput, 'prompt'>, kind: PromptKind, subject: PromptSubject): boolean {
  const listed = (names: readonly string[] | null, value: string | null) => names === null || (value !== null && names.includes(value));
  if (!listed(rule.agent, input.agent) || !listed(rule.host, input.host) || !listed(rule.workspace, input.workspace)) return false;
  if (rule.pane !== null && !rule.pane.includes(input.pane.id) && !(input.pane.name !== null && rule.pane.includes(input.pane.name))) return false;
  // A trust or auth dialog is decided only by a rule that names its kind.
  if (rule.kind === null ? ASKED_ALWAYS.has(kind) : !rule.kind.includes(kind)) return false;
  if (!listed(rule.tool, subject.tool)) return false;
  if (rule.command !== null && (subject.command === null || !rule.command.matches(subject.command))) return false;
  if (rule.path !== null && (subject.path === null || !rule.path.matches(subject.path))) return false;
  if (rule.cwd !== null && (input.cwd === null || !rule.cwd.matches(input.cwd))) return false;
  return true;
}
