import type { AgentView, ArbiterExplain, ChangeRecord, Clock, ProcessTree, ReportOutcome } from '../../arbiter/index.ts';
import { PaneArbiter } from '../../arbiter/index.ts';
import type { ArbiterWindows, InbandPolicy } from '../../arbiter/index.ts';
import { evaluate } from '../../detect/evaluate.ts';
import { ScreenMemory } from '../../detect/screen-memory.ts';
import type { DetectInput } from '../../detect/types.ts';
import { explain as explainScreen, type Explain } from '../../detect/explain.ts';
import { inferForegroundFromChildGroups } from '../../detect/child-groups.ts';
import { childGroupsEnabled } from './process-detection.ts';
import type { ManifestSet } from '../../manifest-store/manifest-set.ts';
import type { ManifestSpec } from '../../detect/manifest-spec.ts';
import { descendants, readMember, readStat } from '../../terminal/procfs.ts';
import type { Disposable } from '../../base/disposable.ts';
import type { ForegroundProcess, OscEvent } from '../../terminal/types.ts';
import type { Logger } from '../logger.ts';
import type { PaneRecord } from '../panes/pane-record.ts';
import type { AgentIdentifier } from './identifier.ts';
import { paneProcessTree } from './process-tree.ts';
import { readComposer, type ComposerReading } from '../../detect/composer-read.ts';
import { readPrompt, type PromptHint, type ReadPrompt } from '../../detect/prompt-read.ts';
import { hintFromProgramStatus, hintFromReport } from '../../detect/prompt-hint.ts';
import type { AgentPrompt } from '../../protocol/prompt.ts';
import { PromptTracker } from './prompt-tracker.ts';

const CHILD_GROUPS_INTERVAL_MS = 500;

/** The process tree of an external pane: every reporter stands alone, under no agent Corral sees. */
const ANY_REPORTER: ProcessTree = { lineage: (pid) => [{ pid, agent: null, hinted: null }] };

interface PaneAgentDeps {
  manifests: () => ManifestSet;
  identify: () => AgentIdentifier;
  clock: Clock;
  windows?: Partial<ArbiterWindows>;
  inband?: InbandPolicy;
  /** Receives every change the arbiter publishes, in order. */
  publish: (pane: PaneRecord, changes: ChangeRecord[]) => void;
  /** Told of every accepted report (what the state file keeps may have changed). */
  accepted?: (pane: PaneRecord) => void;
  /** The prompt of a pane that stays blocked changed (a new dialog, a new id) with no state change to carry it. */
  promptChanged?: (pane: PaneRecord) => void;
  log: Logger;
}

/** What a report says of the state it reports, for the prompt it may describe. */
interface ReportGist {
  source: string;
  state: string;
  message?: string;
}

/**
 * One pane's agent tracking: feeds the pane's foreground, screen verdicts and OSC reports into its
 * arbiter, and keeps one timer on the arbiter's next deadline. Detection runs at most once per turn
 * of the event loop, however many output batches arrived in it, in the same turn as the output.
 */
export class PaneAgent implements Disposable {
  readonly arbiter: PaneArbiter;
  private detectScheduled: NodeJS.Immediate | null = null;
  private deadlineTimer: NodeJS.Timeout | null = null;
  private deadlineAt: number | null = null;
  private lastBatchAt = 0;
  private previousBatchAt = 0;
  private foregroundPgid: number | null = null;
  private inferredAt = 0;
  private drawn = false;
  /** Read once: the environment is a slow read, and this is asked at every turn of output. */
  private readonly childGroups = childGroupsEnabled();
  private disposed = false;
  /** A pane taken back from the pty host, its ring not yet replayed: its screen shows part of it. */
  private replaying = false;
  /** What time-conditioned rules remember of this pane's screen; judged on the arbiter's clock. */
  private readonly memory = new ScreenMemory();
  /** The prompt shown while blocked, with its instance id. */
  private readonly prompts = new PromptTracker();
  /** What the agent itself said of its prompt: OSC 7501's kind, a hook's tool and input. */
  private oscHint: PromptHint | null = null;
  private reportHint: PromptHint | null = null;
  /** What the current prompt was read from: an unchanged screen and hint are not read again. */
  private promptReadFrom: { lines: readonly string[]; hint: PromptHint | null } | null = null;

  constructor(
    readonly pane: PaneRecord,
    private readonly deps: PaneAgentDeps,
  ) {
    this.arbiter = new PaneArbiter({
      clock: deps.clock,
      // An external pane has no process tree: its reporters are found by source and session, any process of the user.
      tree: pane.external !== null ? ANY_REPORTER : paneProcessTree(pane.terminal.pid, deps.identify),
      canonicalAgent: (agent) => deps.manifests().get(agent)?.spec.id ?? agent,
      ...(deps.windows ? { windows: deps.windows } : {}),
      ...(deps.inband ? { inband: deps.inband } : {}),
    });
    // A pane taken back from the pty host keeps its generation, sessions and seq watermarks, so late
    // reports after a daemon restart are judged as they would have been.
    if (pane.recovered && pane.previous?.arbiter) this.arbiter.restore(pane.previous.arbiter);
    // Its screen is judged once whole: halfway through the replay it shows a frame of work long over
    // (a spinner row), so a turn that ended while no daemon ran read working, settled there, and its
    // done went out as a new turn, unmarked (issue 27; test/daemon/persist/recovery-turn.test.ts, SIGTERM).
    const { replayed } = pane.terminal;
    if (pane.recovered && replayed !== undefined) {
      this.replaying = true;
      void replayed.then(() => {
        this.replaying = false;
        this.detect();
      });
    }
    pane.own(pane.terminal.onForegroundChange((foreground) => this.observeForeground(foreground)));
    pane.onOutput(() => this.noteOutput());
    pane.onOsc((event) => this.observeOsc(event));
    pane.onInput((data) => this.observeInput(data));
    pane.onExit(() => this.observeExit());
    if (pane.lifecycle === 'running') this.observeForeground(pane.terminal.foreground());
    else this.observeExit();
  }

  view(): AgentView {
    return this.arbiter.view();
  }

  /** The prompt the agent is blocked on; null when it is not blocked. */
  prompt(): AgentPrompt | null {
    return this.arbiter.view().state === 'blocked' ? this.prompts.current : null;
  }

  /**
   * The text waiting in the agent's input box, read from the screen of this moment ('' when empty);
   * null when its manifest has no `[composer]`, no box is on screen, or a dialog holds the agent.
   */
  composer(): ComposerReading | null {
    const view = this.arbiter.view();
    if (view.agent === null || view.state === 'blocked' || this.pane.external !== null || this.pane.lifecycle !== 'running') return null;
    const composer = this.deps.manifests().get(view.agent)?.composer;
    return composer ? readComposer(composer, this.input()) : null;
  }

  /** The keys that empty the agent's input box, or null when its manifest names none. */
  composerClearKeys(): readonly string[] | null {
    const agent = this.arbiter.view().agent;
    return (agent !== null ? this.deps.manifests().get(agent)?.composer?.spec.clear : undefined) ?? null;
  }

  /** The agent's own live process (what usage reads an agent's record from when no hook names it); null for an external or exited pane. */
  agentProcess(): { agent: string; pid: number } | null {
    return this.pane.external === null && this.pane.lifecycle === 'running' ? this.arbiter.agentProcess() : null;
  }

  /** Whether the pane's program has written anything yet: before that it may still be starting its agent. */
  get hasDrawn(): boolean {
    return this.drawn;
  }

  /** Re-reads the screen now (prompt and answer act on the state of this moment, never an older verdict). */
  refresh(): AgentView {
    if (this.pane.lifecycle === 'running') {
      this.observeForeground(this.pane.terminal.foreground());
      this.detect();
    }
    return this.view();
  }

  /**
   * Whether the screen has already left a blocked state that the debounce still holds: an act such as
   * a prompt, which reads the screen of this moment, should not be refused for it.
   */
  leavingBlocked(): boolean {
    const pending = this.arbiter.explain().pendingDebounce;
    return this.arbiter.view().state === 'blocked' && pending !== null && pending.state !== 'blocked';
  }

  explain(): { detection: Explain | null; arbiter: ArbiterExplain } {
    const agent = this.arbiter.view().agent;
    const manifest = agent && this.pane.external === null ? this.deps.manifests().get(agent) : null;
    const detection = manifest ? explainScreen(manifest, this.input(), this.memory) : null;
    return { detection, arbiter: this.arbiter.explain() };
  }

  markSeen(): void {
    this.apply(this.arbiter.markSeen());
  }

  /**
   * Admits a hook report against the foreground of this moment, and answers it. A program that has just
   * taken the foreground may report before any output made the daemon look: reading the foreground
   * first keeps its report in its own generation instead of an earlier one that is about to end.
   */
  report(admit: (arbiter: PaneArbiter) => ReportOutcome, gist?: ReportGist): { accepted: boolean; reason?: string } {
    this.lookAtForeground();
    if (gist !== undefined) this.reportHint = gist.state === 'blocked' ? hintFromReport(gist.source, gist.message) : null;
    const outcome = admit(this.arbiter);
    this.apply(outcome.changes);
    if (outcome.accepted) this.deps.accepted?.(this.pane);
    this.detectSoon(); // a newly reported agent gets its manifest's rules at once
    return outcome.accepted ? { accepted: true } : { accepted: false, ...(outcome.reason ? { reason: outcome.reason } : {}) };
  }

  /** Manifests were reloaded: evaluate the screen again under the new rules. */
  manifestsChanged(): void {
    this.promptReadFrom = null; // the new readers read the same screen anew
    if (this.pane.lifecycle === 'running') {
      this.observeForeground(this.pane.terminal.foreground());
      this.detectSoon();
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.detectScheduled) clearImmediate(this.detectScheduled);
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.detectScheduled = null;
    this.deadlineTimer = null;
  }

  private noteOutput(): void {
    this.drawn = true;
    this.previousBatchAt = this.lastBatchAt;
    this.lastBatchAt = this.deps.clock.now();
    if (this.childGroups && this.pane.lifecycle === 'running' && this.pane.terminal.foreground() === null) this.inferForeground();
    // The pane tells of output once per turn of the event loop already (it coalesces its parse
    // callbacks): judge the screen now, not a turn later behind every other pane's output of that turn.
    if (this.detectScheduled) clearImmediate(this.detectScheduled);
    this.detectScheduled = null;
    this.detect();
  }

  /**
   * CORRAL_PROCESS_DETECTION=child-groups, for runtimes that give the PTY no foreground process group:
   * infer it from the pane's child process groups, at most twice a second (best effort, docs/operations.md).
   */
  private inferForeground(): void {
    const now = this.deps.clock.now();
    if (now - this.inferredAt < CHILD_GROUPS_INTERVAL_MS) return;
    this.inferredAt = now;
    const root = readStat(this.pane.terminal.pid);
    if (root === null) return;
    const members = descendants(root.pid).flatMap((pid) => {
      const stat = readStat(pid);
      return stat ? [readMember(stat)] : [];
    });
    const inferred = inferForegroundFromChildGroups(readMember(root), members);
    if (inferred !== null) this.observeForeground(inferred);
  }

  private detectSoon(): void {
    if (this.disposed || this.detectScheduled) return;
    this.detectScheduled = setImmediate(() => {
      this.detectScheduled = null;
      this.detect();
    });
  }

  private detect(): void {
    if (this.disposed || this.replaying || this.pane.external !== null) return;
    const agent = this.arbiter.view().agent;
    if (agent === null) return;
    const manifest = this.deps.manifests().get(agent);
    if (!manifest) return;
    try {
      const input = this.input();
      this.apply(this.arbiter.observeScreen(evaluate(manifest, input, this.memory)), input);
    } catch (error) {
      this.pane.warnings.error({ err: error, agent }, 'detection failed');
    }
  }

  /** The screen as detection reads it, stamped with the arbiter's clock. */
  private input(): DetectInput {
    return { ...this.pane.terminal.snapshot(), at: this.deps.clock.now() };
  }

  private observeForeground(foreground: ForegroundProcess | null): void {
    if (this.disposed || this.pane.lifecycle !== 'running') return;
    if (foreground === null) {
      this.apply(this.arbiter.observeProcess({ observable: false, leaderPid: null, agent: null, agentPid: null }));
      return;
    }
    if (this.foregroundPgid !== null && foreground.pgid !== this.foregroundPgid) this.forgetProgramState();
    this.foregroundPgid = foreground.pgid;
    const found = this.deps.identify().group(foreground);
    const manifest = found ? this.deps.manifests().get(found.agent) : null;
    this.apply(
      this.arbiter.observeProcess({
        observable: true,
        leaderPid: foreground.leader?.pid ?? null,
        pgid: foreground.pgid,
        agent: manifest ? manifest.spec.id : (found?.agent ?? null),
        agentPid: found?.pid ?? null,
        ...(found ? { identifiedBy: { by: found.by, detail: found.detail } } : {}),
        fullLifecycleSources: fullLifecycleSources(manifest?.spec ?? null),
      }),
    );
    this.detectSoon();
  }

  /**
   * The foreground program changed: its title and progress no longer describe what runs. Values that
   * came with the latest output batch may already be the new program's, so only older ones go.
   */
  private forgetProgramState(): void {
    const osc = this.pane.terminal.osc;
    const newest = Math.max(osc.title?.at ?? 0, osc.progress?.at ?? 0);
    if (newest <= this.previousBatchAt) this.pane.terminal.resetProgramState();
  }

  private observeOsc(event: OscEvent): void {
    if (this.disposed) return;
    // OSC is parsed before the batch's foreground check: a report must meet the process that wrote it.
    if (event.kind === 'userVar' || event.kind === 'programStatus') this.lookAtForeground();
    const source = this.arbiter.view().source;
    if (event.kind === 'programStatus') this.oscHint = event.value.state === 'blocked' ? hintFromProgramStatus(event.value.fields) : null;
    const outcome = this.arbiter.observeOsc(event);
    if (outcome) {
      this.apply(outcome.changes);
      if (!outcome.accepted) return;
      // A new source of the same state changes what the state file keeps, though no change is published.
      // Not every report: a program printing the same one in a loop must not rewrite the file each time.
      if (outcome.changes.length === 0 && this.arbiter.view().source !== source) this.deps.accepted?.(this.pane);
      this.detectSoon();
    }
  }

  private lookAtForeground(): void {
    if (this.pane.lifecycle === 'running') this.observeForeground(this.pane.terminal.foreground());
  }

  private observeExit(): void {
    if (this.disposed) return;
    if (this.detectScheduled) {
      clearImmediate(this.detectScheduled);
      this.detectScheduled = null;
    }
    this.detect(); // the last screen, fully parsed, gets its verdict before the final state is published
    this.apply(this.arbiter.paneExited());
  }

  /** Publishes changes with the prompt read first, so a change to blocked carries its prompt in the same event. */
  private apply(changes: ChangeRecord[], input?: DetectInput): void {
    const promptChanged = this.notePrompt(input);
    if (changes.length > 0) this.deps.publish(this.pane, changes);
    else if (promptChanged) this.deps.promptChanged?.(this.pane);
    this.armDeadline();
  }

  /** Reads the prompt while the agent is blocked; returns whether it changed (a new instance, the same dialog shown otherwise, or gone). */
  private notePrompt(input: DetectInput | undefined): boolean {
    const view = this.arbiter.view();
    if (view.state !== 'blocked') {
      // Leaving blocked ends the hints of that spell; a hint that came before its blocked state is kept.
      if (this.prompts.current !== null) this.clearStaleHints();
      this.prompts.clear();
      this.promptReadFrom = null;
      return false;
    }
    // The debounce still holds blocked while the screen has moved on (the dialog answered): the prompt stays the one answered.
    if (this.prompts.current !== null && this.leavingBlocked()) return false;
    const screen = this.promptScreen(input);
    const hint = this.reportHint ?? this.oscHint;
    const from = this.promptReadFrom;
    if (from !== null && from.hint === hint && sameLines(from.lines, screen.lines)) return false;
    this.promptReadFrom = { lines: screen.lines, hint };
    try {
      const dialog = this.readPrompt(view.agent, screen, null);
      return this.prompts.update(dialog, hint === null ? dialog : this.readPrompt(view.agent, screen, hint)) !== 'same';
    } catch (error) {
      this.pane.warnings.error({ err: error, agent: view.agent }, 'reading the prompt failed');
      return false;
    }
  }

  /** The screen prompts are read from: an external pane has no screen of its own, an exited one no more output. */
  private promptScreen(input: DetectInput | undefined): DetectInput {
    return input ?? (this.pane.external === null && this.pane.lifecycle === 'running' ? this.input() : { lines: [], title: null, progress: null, at: this.deps.clock.now() });
  }

  /** An answer to prompt `id` is about to be typed: a report that follows it names no prompt unless the screen shows one. */
  answering(id: string): void {
    this.prompts.answered(id);
  }

  /** The answer to prompt `id` has its reply: a cursor its keys left moved gives the dialog a new id now. */
  answerEnded(id: string): void {
    if (this.prompts.answerEnded(id) !== 'same') this.deps.promptChanged?.(this.pane);
  }

  /**
   * Whether the dialog of prompt `id` is still on the screen now, read apart from the debounce that may
   * still hold blocked. A prompt no reader read (reports only), or none (`id` null), is judged by
   * `since`, the screen when the answer was typed: it is there until the screen changes.
   */
  stillShows(id: string | null, since: readonly string[]): boolean {
    const screen = this.promptScreen(undefined);
    if (id === null) return sameLines(since, screen.lines);
    if (!this.prompts.knows(id)) return false;
    if (!this.prompts.readFromScreen(id)) return sameLines(since, screen.lines);
    return this.prompts.shows(id, this.readPrompt(this.arbiter.view().agent, screen, null));
  }

  /** The screen's lines now (what `stillShows` compares a prompt no reader read against). */
  screenLines(): readonly string[] {
    return this.promptScreen(undefined).lines;
  }

  /**
   * Input typed into a dialog whose selection the screen does not show (a reader with `select = "row"`,
   * OpenCode's buttons) may move that selection: unless it ends with Enter, which takes the choice and
   * ends the dialog, its choices' keys are no longer known.
   */
  private observeInput(data: string): void {
    const prompt = this.prompt();
    if (prompt === null || data.endsWith('\r')) return;
    const agent = this.arbiter.view().agent;
    const manifest = agent !== null ? this.deps.manifests().get(agent) : undefined;
    const reader = manifest?.prompts.find((compiled) => `screen:${compiled.spec.id}` === prompt.source);
    if (reader?.spec.select !== 'row') return;
    const note = 'a key was typed into this dialog since it opened, and the screen does not show which button is selected now: answer with keys';
    if (this.prompts.selectionUnknown(note) !== 'same') this.deps.promptChanged?.(this.pane);
  }

  private readPrompt(agent: string | null, input: DetectInput, hint: PromptHint | null): ReadPrompt {
    const manifest = agent !== null && this.pane.external === null && this.pane.lifecycle === 'running' ? this.deps.manifests().get(agent) : undefined;
    if (manifest) return readPrompt(manifest, input, hint);
    return {
      kind: hint?.kind ?? 'other',
      text: hint?.text ?? '',
      choices: [],
      freeText: false,
      note: this.pane.external !== null ? 'the agent runs outside Corral: only its hooks are known, and there is no screen to answer on' : 'no manifest reads this pane\'s screen',
      source: hint?.source ?? 'screen',
      complete: false,
      incomplete: 'no prompt reader read this dialog from the screen',
    };
  }

  /** Hints describe one blocked spell: once the agent has left blocked they are old news. */
  private clearStaleHints(): void {
    this.reportHint = null;
    this.oscHint = null;
  }

  private armDeadline(): void {
    if (this.disposed) return;
    const next = this.arbiter.nextDeadline();
    if (next === this.deadlineAt) return;
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
    this.deadlineAt = next;
    if (next === null) return;
    const delay = Math.max(0, next - this.deps.clock.now());
    this.deadlineTimer = setTimeout(() => {
      this.deadlineTimer = null;
      this.deadlineAt = null;
      if (this.arbiter.screenRecheckDue() && this.pane.lifecycle === 'running') this.detect();
      this.apply(this.arbiter.tick());
    }, delay);
    this.deadlineTimer.unref();
  }
}

/** The manifest's declared sources, and its integration's hook source when those hooks see every transition. */
function fullLifecycleSources(spec: ManifestSpec | null): string[] {
  if (spec === null) return [];
  const integration = spec.integration?.fullLifecycle ? [`hook:${spec.integration.hook}`] : [];
  return [...spec.reports.fullLifecycleSources, ...integration];
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
