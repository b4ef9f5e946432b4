import type { PolicyDecision } from '../../protocol/methods/policy.ts';

/** `rule 3 (/home/me/.config/corral/policy.toml:12) "tests"`, or `no rule`. */
export function ruleName(rule: PolicyDecision['rule']): string {
  return rule ? `rule ${rule.number} (${rule.file}:${rule.line})${rule.name ? ` "${rule.name}"` : ''}` : 'no rule';
}

/** What the policy did with a prompt, as a person reads it: `answered by policy rule 1 (file:line) with yes`. */
export function decisionLine(decision: Pick<PolicyDecision, 'action' | 'choice' | 'rule' | 'reason' | 'mode' | 'answered' | 'outcome'> & { source?: PolicyDecision['source'] }): string {
  if (decision.action === 'ask') return `left to the person by the policy: ${decision.reason}`;
  const verb = decision.action === 'allow' ? 'answered' : 'denied';
  if (decision.answered) return `${verb} by policy ${ruleName(decision.rule)} with ${decision.choice}${decision.source === 'hook' ? " through the agent's hook" : ''}`;
  const why = decision.mode !== 'on' ? `the policy is ${decision.mode}` : `not typed: ${decision.outcome ?? 'unknown'}`;
  return `policy ${ruleName(decision.rule)} would ${decision.action} with ${decision.choice} (${why})`;
}

/** One audit line: time, pane, agent, prompt, what was asked and the decision. */
export function auditLine(decision: PolicyDecision): string {
  const asked = decision.subject.command ?? decision.subject.path ?? '';
  const pane = decision.pane.name ? `${decision.pane.id} (${decision.pane.name})` : decision.pane.id;
  const what = `${decision.subject.tool ?? '?'}${asked ? ` ${JSON.stringify(asked)}` : ''}`;
  return `${new Date(decision.ts).toISOString()}  ${pane}  ${decision.agent ?? '-'}  ${decision.promptId}  ${what}  ${decisionLine(decision)}`;
}
