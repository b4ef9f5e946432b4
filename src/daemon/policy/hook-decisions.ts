import type { PolicyDecision } from '../../protocol/methods/policy.ts';
import type { AgentPrompt } from '../../protocol/prompt.ts';
import type { PromptSubject } from '../../policy/subject.ts';

/**
 * How long a hook's decision waits for the dialog it came before. An agent runs its permission hook
 * just before it would draw the dialog, and draws it once the hook is done: seconds at most, even on a
 * loaded machine (docs/reporting.md, "How much earlier the hooks report than the screen").
 */
export const HOOK_DIALOG_WINDOW_MS = 30_000;

/**
 * The last decision each pane's hook was given, until the dialog it came before is on screen: the
 * screen path takes that dialog as decided already instead of deciding (and answering) it again.
 * An agent runs its hook before each dialog, so a pane's newest hook decision is its next dialog's.
 */
export class HookDecisions {
  private readonly last = new Map<string, { at: number; decision: PolicyDecision }>();
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly now: () => number = Date.now) {}

  remember(paneId: string, decision: PolicyDecision): void {
    this.last.set(paneId, { at: this.now(), decision });
    this.asked(paneId);
  }

  /** The pane's hook asked (decided or not): whoever waits on `next` goes on. */
  asked(paneId: string): void {
    for (const wake of [...(this.waiters.get(paneId) ?? [])]) wake();
  }

  /** Resolves when the pane's hook next asks, or after `ms`. */
  next(paneId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiting = this.waiters.get(paneId) ?? new Set<() => void>();
      this.waiters.set(paneId, waiting);
      const wake = () => {
        clearTimeout(timer);
        waiting.delete(wake);
        if (waiting.size === 0) this.waiters.delete(paneId);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref();
      waiting.add(wake);
    });
  }

  /** Whether the pane's next dialog is one its hook allowed or denied: the agent takes it down itself. */
  pendingAnswer(paneId: string): boolean {
    return this.pending(paneId) && this.last.get(paneId)!.decision.answered;
  }

  /** Whether the pane's next dialog is one its hook had decided. */
  pending(paneId: string): boolean {
    const last = this.last.get(paneId);
    return last !== undefined && this.now() - last.at < HOOK_DIALOG_WINDOW_MS;
  }

  /**
   * The hook's decision on this dialog, taken once: a permission shown within the window whose tool,
   * where the screen reads one, is the one the hook asked about. Anything else is a dialog of its own.
   */
  claim(paneId: string, prompt: AgentPrompt, subject: PromptSubject): PolicyDecision | null {
    const last = this.last.get(paneId);
    if (last === undefined || !this.pending(paneId) || prompt.kind !== 'permission') return null;
    if (subject.tool !== null && last.decision.subject.tool !== null && subject.tool !== last.decision.subject.tool) return null;
    this.last.delete(paneId);
    return last.decision;
  }

  forget(paneId: string): void {
    this.last.delete(paneId);
  }
}
