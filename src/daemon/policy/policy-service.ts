import { hostname } from 'node:os';
import type { Disposable } from '../../base/disposable.ts';
import { DisposableStore } from '../../base/disposable.ts';
import { decide, decideRequest, type Decision, type DecisionInput, type IdentityBasis } from '../../policy/decide.ts';
import { withProjectRules } from '../../policy/load-policy.ts';
import type { Policy } from '../../policy/policy-spec.ts';
import { promptSubject, requestSubject } from '../../policy/subject.ts';
import { CorralError } from '../../protocol/errors.ts';
import type { AnswerResult } from '../../protocol/methods/agent-act.ts';
import type { PolicyDecision, PolicyStatus } from '../../protocol/methods/policy.ts';
import type { PolicyHookAnswer } from '../../protocol/methods/policy-hook.ts';
import type { AgentPrompt } from '../../protocol/prompt.ts';
import type { DaemonCore } from '../agents/core.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { AuditLog } from './audit-log.ts';
import { HookDecisions } from './hook-decisions.ts';
import { HookTwins } from './hook-twins.ts';
import { LoopGuard } from './loop-guard.ts';

/**
 * How long a permission dialog of an agent on the hook path waits for its hook's request before the
 * screen path decides it: the hook starts a process (about 0.2 s, 0.3 s at p99 under load:
 * bench/policy-answer.ts), and a held push waits 2 s (daemon/push/push-channel.ts).
 */
const HOOK_LATE_MS = 1500;

/** Agents whose permission hook takes the policy's answer (docs/policy.md, "Which path"), when their hooks report in this pane. */
const HOOK_PATH_AGENTS = new Set(['claude', 'qwen']);

function onHookPath(agent: string | null, reports: readonly { source: string }[]): boolean {
  return agent !== null && HOOK_PATH_AGENTS.has(agent) && reports.some((report) => report.source === `hook:${agent}`);
}

/** Types a choice into a pane's prompt as `agent.answer` does: on that prompt id or nowhere. */
export type AnswerPrompt = (pane: PaneRecord, request: { choice: string; promptId: string }) => Promise<AnswerResult>;

/** A tool request a pane's agent asks its permission hook about (docs/policy.md, the hook path). */
export interface HookRequest {
  agent: string;
  tool: string;
  command?: string;
  path?: string;
}

/** Prompt ids a pane remembers as decided: a dialog comes back under a new id. */
const DECIDED_PER_PANE = 64;

/**
 * The approval policy at work: decides each complete prompt once, when its pane shows it, types the
 * choice through `answer` (which refuses a dialog that changed since), and logs every decision as a
 * `policy.decided` event and a line of the audit log. Paused, in dry-run or over the loop guard, it
 * decides and logs but types nothing.
 */
export class PolicyService implements Disposable {
  private current: Policy;
  private paused = false;
  private readonly decided = new Map<string, string[]>();
  private readonly last = new Map<string, PolicyDecision>();
  private readonly busy = new Set<string>();
  private readonly again = new Set<string>();
  private readonly guard = new LoopGuard();
  private readonly hooked = new HookDecisions();
  private readonly twins = new HookTwins();
  private hookRequests = 0;
  private readonly owned = new DisposableStore();
  private readonly host = hostname();
  private disposed = false;

  constructor(
    private readonly core: DaemonCore,
    private readonly hub: EventHub,
    readonly auditLog: AuditLog,
    private readonly answer: AnswerPrompt,
    policy: Policy,
  ) {
    this.current = policy;
    this.owned.add(
      core.agents.onChange((change) => {
        // A turn that ended is past its requests: the same one asked again is a new request.
        if (change.info.state === 'idle' || change.info.state === 'done') this.twins.forget(change.pane.id);
        if (change.info.state !== 'blocked' || change.info.prompt?.complete !== true) return;
        setImmediate(() => void this.consider(change.pane));
      }),
    );
    this.owned.add(
      core.registry.onRemoved((info) => {
        for (const map of [this.decided, this.last]) map.delete(info.id);
        this.guard.forget(info.id);
        this.hooked.forget(info.id);
        this.twins.forget(info.id);
      }),
    );
  }

  get policy(): Policy {
    return this.current;
  }

  /** Swaps the whole policy at once (a reload that failed never reaches here). */
  use(policy: Policy): void {
    this.current = policy;
    this.twins.clear();
    this.hub.publish('policy.changed', null, { status: this.status() });
  }

  setPaused(paused: boolean): PolicyStatus {
    this.paused = paused;
    this.twins.clear();
    this.core.log.info({ paused }, paused ? 'policy paused' : 'policy resumed');
    const status = this.status();
    this.hub.publish('policy.changed', null, { status });
    return status;
  }

  status(): PolicyStatus {
    const { mode, files, rules, loopLimit } = this.current;
    return { active: rules.length > 0 && mode !== 'off' && !this.paused, mode, paused: this.paused, files: [...files], rules: rules.length, loopLimit, log: this.auditLog.path };
  }

  /** What a decision taken now does: types (`on`), or only logs (`dry-run`, `paused`). */
  mode(): PolicyDecision['mode'] {
    return this.paused ? 'paused' : this.current.mode === 'dry-run' ? 'dry-run' : 'on';
  }

  /**
   * Whether the policy is about to decide this prompt and type its answer at once: on, not paused, with
   * rules, no grace before its keys (a grace is there for the person to step in), and no decision on
   * the prompt recorded yet. A notification of the prompt can wait for it (daemon/push/).
   */
  mayAnswerAtOnce(paneId: string, promptId: string): boolean {
    const { mode, rules, answerDelayMs } = this.current;
    if (mode !== 'on' || rules.length === 0 || this.paused) return false;
    // A dialog its hook allowed or denied goes in a moment; one it left to the person stays.
    if (this.hooked.pending(paneId)) return this.hooked.pendingAnswer(paneId);
    if (answerDelayMs > 0) return false;
    return this.last.get(paneId)?.promptId !== promptId;
  }

  lastDecision(paneId: string): PolicyDecision | null {
    return this.last.get(paneId) ?? null;
  }

  /** What the policy would decide on the pane's prompt now; null without a prompt. Types nothing. */
  check(pane: PaneRecord): { prompt: AgentPrompt | null; decision: Decision | null } {
    const agent = this.core.agents.find(pane);
    const prompt = agent?.prompt() ?? null;
    if (agent === undefined || prompt === null) return { prompt, decision: null };
    return { prompt, decision: this.decideOn(pane, prompt) };
  }

  private decideOn(pane: PaneRecord, prompt: AgentPrompt): Decision {
    const { input, narrowed } = this.inputOf(pane);
    if (!('rules' in narrowed)) return { ...decide({ ...this.current, rules: [] }, { ...input, prompt }), reason: unusable(narrowed.message) };
    return decide(narrowed, { ...input, prompt });
  }

  /** What every decision on the pane is taken on, and the policy narrowed by its project's own file. */
  private inputOf(pane: PaneRecord) {
    const agent = this.core.agents.of(pane);
    const view = agent.view();
    const byProcess = agent.arbiter.processIdentity();
    const identity: IdentityBasis = view.identity === 'process' ? (byProcess === 'hint' ? 'hint' : 'process') : view.identity;
    const cwd = pane.identity.cwd || null;
    const input: Omit<DecisionInput, 'prompt'> = { agent: view.agent, identity, host: this.host, workspace: pane.identity.workspace, pane: { id: pane.id, name: pane.name }, cwd };
    return { input, narrowed: withProjectRules(this.current, cwd) };
  }

  /**
   * The hook path: the pane's agent asks, from its permission hook as the dialog comes up,
   * about one tool request, exact from the hook's payload. Decided with the same safety and rules as
   * a dialog, logged with source `hook`; an allow or deny goes back to the hook, which gives it to the
   * agent, and nothing is typed. Anything else answers nothing: the agent shows its dialog. The caller
   * was bound to the pane as a hook report is (handlers.ts). The same request asked again by a second
   * copy of the hook gets the first one's answer and is not decided again (hook-twins.ts).
   */
  decideHook(pane: PaneRecord, request: HookRequest): PolicyHookAnswer {
    try {
      const mark = this.wentOn(pane);
      const twin = this.twins.twin(pane.id, request, mark);
      if (twin !== null) {
        this.core.log.debug({ pane: pane.id, tool: request.tool }, 'a second hook asked the same request: its first answer, decided once');
        return twin;
      }
      return this.decideHookNow(pane, request, mark);
    } finally {
      this.hooked.asked(pane.id);
    }
  }

  /** The arrival of the pane's newest report that says its agent went on (anything but blocked); 0 if none. */
  private wentOn(pane: PaneRecord): number {
    const reports = this.core.agents.find(pane)?.arbiter.memory().reports ?? [];
    return reports.reduce((newest, report) => (report.state !== 'blocked' && report.arrival > newest ? report.arrival : newest), 0);
  }

  private decideHookNow(pane: PaneRecord, request: HookRequest, mark: number): PolicyHookAnswer {
    const policy = this.current;
    const none = (reason: string): PolicyHookAnswer => ({ behavior: null, message: null, reason });
    if (policy.mode === 'off' || policy.rules.length === 0) return none('no policy is on');
    if (pane.lifecycle !== 'running' || this.core.agents.find(pane) === undefined) return none('the pane runs no agent');
    // A grace is there for the person to step in, which a hook cannot wait for: the dialog's to decide.
    if (policy.answerDelayMs > 0) return none('answer_delay_ms holds each answer for a grace: the screen path decides');
    const { input, narrowed } = this.inputOf(pane);
    const subject = requestSubject(request.tool, request);
    let decision: Decision | null;
    if (input.agent !== request.agent) {
      decision = { action: 'ask', rule: null, choice: null, message: null, reason: `the hook is ${request.agent}'s, the pane's agent is ${input.agent ?? 'not known'}: the person decides`, subject };
    } else if (!('rules' in narrowed)) {
      decision = { ...decideRequest({ ...policy, rules: [] }, { ...input, subject })!, reason: unusable(narrowed.message) };
    } else {
      decision = decideRequest(narrowed, { ...input, subject });
    }
    if (decision === null) return none('the rule that matches names a choice of the dialog: the screen path decides');
    const mode = this.mode();
    if (decision.action !== 'ask' && mode === 'on' && !this.guard.admit(pane.id, policy.loopLimit)) {
      decision = { ...decision, action: 'ask', choice: null, reason: `${decision.reason}, but the loop guard stops it: ${policy.loopLimit} automatic answers in this pane within a minute; the person decides` };
    }
    const answered = decision.action !== 'ask' && mode === 'on';
    this.hookRequests += 1;
    const id = `hook-${Date.now().toString(36)}-${this.hookRequests}`;
    const entry = this.record(pane, input.agent, id, decision, mode, answered, null, 'hook');
    this.hooked.remember(pane.id, entry);
    const answer: PolicyHookAnswer = answered
      ? { behavior: decision.action as 'allow' | 'deny', message: decision.action === 'deny' ? decision.message : null, reason: decision.reason }
      : none(decision.reason);
    this.twins.remember(pane.id, request, mark, answer);
    return answer;
  }

  /** Decides the pane's prompt if it is complete and not decided yet; one at a time per pane. */
  private async consider(pane: PaneRecord): Promise<void> {
    if (this.busy.has(pane.id)) {
      this.again.add(pane.id);
      return;
    }
    this.busy.add(pane.id);
    try {
      await this.considerNow(pane);
    } catch (error) {
      this.core.log.error({ err: error, pane: pane.id }, 'policy decision failed');
    } finally {
      this.busy.delete(pane.id);
      if (this.again.delete(pane.id)) setImmediate(() => void this.consider(pane));
    }
  }

  private async considerNow(pane: PaneRecord): Promise<void> {
    const policy = this.current;
    if (policy.mode === 'off' || policy.rules.length === 0 || pane.lifecycle !== 'running') return;
    const agent = this.core.agents.find(pane);
    const prompt = agent?.prompt() ?? null;
    if (agent === undefined || prompt === null || !prompt.complete || !this.firstTime(pane.id, prompt.id)) return;
    // A dialog whose request the agent's hook asked about was decided then: never decided (or typed)
    // twice. An agent may draw the dialog while its hook runs (Claude Code 2.1.332 does, live, and takes
    // it down again on the hook's allow), so on the hook path the hook's request may come just after.
    let hooked = this.hooked.claim(pane.id, prompt, promptSubject(prompt));
    if (hooked === null && prompt.kind === 'permission' && onHookPath(agent.view().agent, agent.arbiter.memory().reports ?? [])) {
      await this.hooked.next(pane.id, HOOK_LATE_MS);
      if (this.disposed) return;
      hooked = this.hooked.claim(pane.id, prompt, promptSubject(prompt));
    }
    // Decided by the hook: an allow or deny the agent takes itself; an ask is the person's. A dialog that
    // stays after an allow or deny reaches the person as any dialog does (inbox, push).
    if (hooked !== null) return;
    let decision = this.decideOn(pane, prompt);
    let mode = this.mode();
    const acts = decision.action !== 'ask' && decision.choice !== null;
    if (acts && mode === 'on' && !this.guard.admit(pane.id, policy.loopLimit)) {
      decision = { ...decision, action: 'ask', choice: null, reason: `${decision.reason}, but the loop guard stops it: ${policy.loopLimit} automatic answers in this pane within a minute; the person decides` };
    }
    let answered = false;
    let outcome: string | null = null;
    if (decision.action !== 'ask' && decision.choice !== null && mode === 'on' && policy.answerDelayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, policy.answerDelayMs));
      if (this.disposed) return;
      if (this.paused) mode = 'paused'; // the kill switch, pressed during the grace
    }
    if (decision.action !== 'ask' && decision.choice !== null && mode === 'on') {
      try {
        outcome = (await this.answer(pane, { choice: decision.choice, promptId: prompt.id })).outcome;
        answered = true;
      } catch (error) {
        if (!(error instanceof CorralError)) throw error;
        outcome = error.code;
      }
    }
    this.record(pane, agent.view().agent, prompt.id, decision, mode, answered, outcome, 'screen');
  }

  private firstTime(paneId: string, promptId: string): boolean {
    const seen = this.decided.get(paneId) ?? [];
    if (seen.includes(promptId)) return false;
    seen.push(promptId);
    if (seen.length > DECIDED_PER_PANE) seen.shift();
    this.decided.set(paneId, seen);
    return true;
  }

  private record(
    pane: PaneRecord,
    agent: string | null,
    promptId: string,
    decision: Decision,
    mode: PolicyDecision['mode'],
    answered: boolean,
    outcome: string | null,
    source: PolicyDecision['source'],
  ): PolicyDecision {
    const entry: PolicyDecision = {
      ts: Date.now(),
      pane: { id: pane.id, name: pane.name },
      agent,
      promptId,
      action: decision.action,
      choice: decision.choice,
      rule: decision.rule,
      message: decision.message,
      reason: decision.reason,
      source,
      mode,
      answered,
      outcome,
      subject: decision.subject,
    };
    this.last.set(pane.id, entry);
    this.auditLog.append(entry);
    this.hub.publish('policy.decided', { id: pane.id, name: pane.name }, { decision: entry }, agent);
    return entry;
  }

  dispose(): void {
    this.disposed = true;
    this.owned.dispose();
  }
}

function unusable(message: string): string {
  return `the project's policy cannot be used (${message}): the person decides`;
}
