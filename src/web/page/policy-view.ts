import type { PolicyDecision, PolicyStatus } from '../../protocol/methods/policy.ts';
import { el } from './format.ts';
import type { PageRpc, RpcError } from './rpc.ts';

/** Whether a policy has a line to show: it has rules and is not off. */
export function policyShown(status: PolicyStatus | null): status is PolicyStatus {
  return status !== null && status.rules > 0 && status.mode !== 'off';
}

/**
 * A policy's words and its kill switch (docs/policy.md): on, dry-run or paused, and Pause (or Resume).
 * `toggle` pauses (true) or resumes it; its new state comes back as the daemon says it, and a failure
 * is written beside the button.
 */
export function policyParts(status: PolicyStatus, toggle: (pause: boolean) => Promise<unknown>): HTMLElement[] {
  const word = status.paused ? 'paused' : status.mode;
  const said = el('span', `policy-state policy-${word}`, `Policy ${word}`);
  const detail = el('span', 'policy-detail', status.paused ? 'each prompt goes to you' : `${status.rules} rule${status.rules === 1 ? '' : 's'}${status.mode === 'dry-run' ? ', deciding and logging without typing' : ''}`);
  const button = el('button', status.paused ? '' : 'secondary', status.paused ? 'Resume policy' : 'Pause policy');
  button.type = 'button';
  const note = el('span', 'policy-note');
  button.onclick = () => {
    button.disabled = true;
    toggle(!status.paused).catch((error: RpcError) => {
      button.disabled = false;
      note.textContent = error.message;
    });
  };
  // The words in a column of their own, so that on a phone they wrap beside the button, which stays put as the line flips.
  return [el('span', 'policy-text', '', said, detail), button, note];
}

/**
 * The approval policy's line above the board: shown only while the policy has rules and is not off.
 * The kill switch pauses (or resumes) it for every agent of this daemon. With --fleet each host runs
 * its own, on its host's line (hosts-view.ts), and this line shows none.
 */
export class PolicyBar {
  readonly root = el('div', 'policy');
  private shown = '';
  status: PolicyStatus | null = null;

  constructor(private readonly rpc: PageRpc) {
    this.root.id = 'policy';
  }

  /** Whether there is a line to show. */
  get visible(): boolean {
    return policyShown(this.status);
  }

  render(): void {
    const status = this.status;
    const key = status === null ? '' : `${status.mode}:${status.paused}:${status.rules}`;
    if (key === this.shown) return;
    this.shown = key;
    if (!policyShown(status)) return void this.root.replaceChildren();
    this.root.replaceChildren(
      ...policyParts(status, (pause) =>
        this.rpc.call(pause ? 'policy.pause' : 'policy.resume').then((next) => {
          this.status = next;
          this.render();
        }),
      ),
    );
  }
}

/** What the policy last did on a pane's prompt, as the agent's page says it: `answered by policy rule 1 (file:line) with yes`. */
export function lastDecisionLine(decision: PolicyDecision): string {
  const rule = decision.rule ? `rule ${decision.rule.number} (${decision.rule.file}:${decision.rule.line})${decision.rule.name ? ` "${decision.rule.name}"` : ''}` : 'no rule';
  const how = decision.source === 'hook' ? " through the agent's hook" : '';
  if (decision.action === 'ask') return `Last prompt left to you by the policy: ${decision.reason}`;
  const verb = decision.action === 'allow' ? 'answered' : 'denied';
  if (decision.answered) return `Last prompt ${verb} by policy ${rule} with ${decision.choice}${how}`;
  return `Policy ${rule} would ${decision.action} the last prompt (${decision.mode === 'on' ? `not typed: ${decision.outcome ?? 'unknown'}` : `the policy is ${decision.mode}`})`;
}
