import type { PolicyDecision, PolicyStatus } from '../../protocol/methods/policy.ts';
import { el } from './format.ts';
import type { PageRpc, RpcError } from './rpc.ts';

/**
 * The approval policy's line above the board (docs/policy.md): on, dry-run or paused, and the kill
 * switch, Pause (or Resume) for every agent of this daemon. Shown only while the policy has rules and
 * is not off; with --fleet each host runs its own and the board shows none.
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
    return this.status !== null && this.status.rules > 0 && this.status.mode !== 'off';
  }

  render(): void {
    const status = this.status;
    const key = status === null ? '' : `${status.mode}:${status.paused}:${status.rules}`;
    if (key === this.shown) return;
    this.shown = key;
    if (status === null || !this.visible) return void this.root.replaceChildren();
    const word = status.paused ? 'paused' : status.mode;
    const said = el('span', `policy-state policy-${word}`, `Policy ${word}`);
    const detail = el('span', 'policy-detail', status.paused ? 'each prompt goes to you' : `${status.rules} rule${status.rules === 1 ? '' : 's'}${status.mode === 'dry-run' ? ', deciding and logging without typing' : ''}`);
    const button = el('button', status.paused ? '' : 'secondary', status.paused ? 'Resume policy' : 'Pause policy');
    button.type = 'button';
    const note = el('span', 'policy-note');
    button.onclick = () => {
      button.disabled = true;
      void this.rpc.call(status.paused ? 'policy.resume' : 'policy.pause').then(
        (next) => {
          this.status = next;
          this.render();
        },
        (error: RpcError) => {
          button.disabled = false;
          note.textContent = error.message;
        },
      );
    };
    // The words in a column of their own, so that on a phone they wrap beside the button, which stays put as the line flips.
    this.root.replaceChildren(el('span', 'policy-text', '', said, detail), button, note);
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
