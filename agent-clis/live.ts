// Live end-to-end check: each real agent CLI runs inside a pane of a real Corral daemon and is driven
// only through the real `corral` CLI, as a user would: identity from the live process, the startup
// dialog, a slow turn, a permission prompt, the event stream and explain at each state, then the
// daemon restarted in the middle of a turn (once stopped with SIGTERM, once killed with SIGKILL): the
// pty host keeps the agent running, the new daemon recovers the pane and reports the turn as done.
// Usage (from the repo root, as root): node --import tsx agent-clis/live.ts [gemini qwen copilot opencode claude codex grok-cli cline]
// Each CLI runs at its newest installed version (NEWEST below); `claude@2.1.197` picks another one.
// LIVE_STEPS=usage runs the start, the two turns and the usage comparison only; LIVE_STEPS=policy the
// start, the turns and one shell request an approval policy allows.
// Prints one line per step (PASS, FAIL or NOTE) and exits 1 when a step failed. Not part of `npm test`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agents, binPath, type AgentSpec } from './agents.ts';
import { HOOK_MAPPINGS } from '../src/cli/report/mappings.ts';
import { HELD_ANSWER_END, SHELL_COMMAND, SLOW_ANSWER_END, TOOL_ANSWER_END, startMockModel, type MockModel } from './mock-model.ts';
import { countedAnswers } from './mock-usage.ts';
import { CorralCli, type CliRun } from './live/corral-cli.ts';
import { Observer, SCREEN_POLL_MS } from './live/observer.ts';
import { commandLine, endAll, processesUsing } from './live/processes.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..');
const ORDER = ['gemini', 'qwen', 'copilot', 'opencode', 'claude', 'codex'];
/** Also runnable by name: */
const OTHERS = ['grok-cli', 'cline'];
const TIME_BOX_MS = 15 * 60_000;
const MOCK_LIFETIME_MS = TIME_BOX_MS + 60_000;
const PANE = 'live';

/** The newest installed version of each CLI that has several (agents.ts `others`): what the live check runs. */
const NEWEST: Record<string, string> = { claude: '2.1.332', qwen: '0.24.4' };

/**
 * An answer: `label`, the choice of the prompt Corral read (`corral agent get`) whose label matches,
 * answered by its id, as a client that reads the prompt does; `otherwise`, what is typed when the
 * prompt has no such choice (no reader knew the dialog): the option number, or keys.
 */
type Answer = { label: RegExp; otherwise: { choice: number } | { keys: string[] } };

/** How each CLI's startup dialog and permission prompt are answered through `corral agent answer`. */
const ANSWERS: Record<string, { trust?: Answer; permission: Answer }> = {
  gemini: { trust: { label: /^trust folder/i, otherwise: { choice: 1 } }, permission: { label: /^allow once/i, otherwise: { choice: 1 } } },
  qwen: { permission: { label: /^(yes, )?allow once/i, otherwise: { choice: 1 } } },
  copilot: { trust: { label: /^yes/i, otherwise: { choice: 1 } }, permission: { label: /^yes$/i, otherwise: { choice: 1 } } },
  // OpenCode's permission dialog is a row of buttons without numbers; `Allow once` is selected.
  opencode: { permission: { label: /^allow once/i, otherwise: { keys: ['Enter'] } } },
  // 2.1.328 and later list `No, exit` first and selected, without numbers.
  claude: { trust: { label: /^yes, i trust/i, otherwise: { choice: 1 } }, permission: { label: /^yes$/i, otherwise: { choice: 1 } } },
  // Codex's trust dialog only moves the selection on a digit (`Trust and continue` is selected); its
  // approval prompt takes the digit.
  codex: { trust: { label: /^trust and continue/i, otherwise: { keys: ['Enter'] } }, permission: { label: /^yes/i, otherwise: { choice: 1 } } },
  // grok-cli's confirmation moves with the arrows only; `1. Yes` is selected.
  'grok-cli': { permission: { label: /^yes$/i, otherwise: { keys: ['Enter'] } } },
  // Cline's approval panel: `[y] Approve`.
  cline: { permission: { label: /^approve/i, otherwise: { keys: ['y'] } } },
};

type Verdict = 'PASS' | 'FAIL' | 'NOTE';

interface StepResult {
  agent: string;
  step: string;
  verdict: Verdict;
  detail: string;
}

const results: StepResult[] = [];

class AgentRun {
  readonly work: string;
  readonly home: string;
  readonly project: string;
  readonly socket: string;
  readonly hooks: string;
  private daemon: ChildProcess | null = null;
  private daemonEnv: Record<string, string> = {};
  mock: MockModel | null = null;
  observer: Observer | null = null;
  cli!: CorralCli;
  t0 = Date.now();
  /** Each finished turn's done lag: ms from the turn's end on screen to the published done. */
  readonly doneLags: { step: string; ms: number; rule: string }[] = [];
  private readonly log: string[] = [];

  constructor(readonly spec: AgentSpec, readonly version: string) {
    this.work = mkdtempSync(join(tmpdir(), `corral-live-${spec.id}-`));
    this.home = join(this.work, 'home');
    this.project = join(this.work, 'project');
    this.socket = join(this.work, 'run', 'corral.sock');
    this.hooks = join(this.work, 'hooks');
    for (const dir of [this.home, this.project]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(this.project, 'README.md'), '# live check project\n');
  }

  get patience(): number {
    return this.spec.patience ?? 1;
  }

  rel(ms: number): string {
    return `+${((ms - this.t0) / 1000).toFixed(2)}s`;
  }

  say(line: string): void {
    const text = `[${this.spec.id}] ${this.rel(Date.now())} ${line}`;
    this.log.push(text);
    process.stdout.write(`${text}\n`);
  }

  record(step: string, verdict: Verdict, detail: string): void {
    results.push({ agent: this.spec.id, step, verdict, detail });
    this.say(`${verdict} ${step}: ${detail}`);
  }

  async start(): Promise<void> {
    this.mock = await startMockModel({ lifetimeMs: MOCK_LIFETIME_MS, logFile: join(this.work, 'mock-model.log') });
    const ctx = { port: this.mock.port, home: this.home, project: this.project, version: this.version };
    this.spec.setup(ctx);
    // The daemon gets the clean environment the recorder gives a CLI; every pane inherits it.
    const env: Record<string, string> = {
      PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      HOME: this.home,
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      COLORTERM: 'truecolor',
      USER: 'capture',
      SHELL: '/bin/bash',
      XDG_RUNTIME_DIR: join(this.work, 'xdg-run'),
      XDG_CONFIG_HOME: join(this.work, 'xdg-config'),
      XDG_STATE_HOME: join(this.work, 'xdg-state'),
    };
    for (const dir of [env.XDG_RUNTIME_DIR!, env.XDG_CONFIG_HOME!, env.XDG_STATE_HOME!]) mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (process.env.LIVE_STEPS === 'policy') {
      // The policy the live policy step checks: the mock's shell command allowed, nothing else.
      mkdirSync(join(env.XDG_CONFIG_HOME!, 'corral'), { recursive: true, mode: 0o700 });
      writeFileSync(join(env.XDG_CONFIG_HOME!, 'corral', 'policy.toml'), `[[rule]]\nname = "live"\ntool = "Bash"\ncommand = '${SHELL_COMMAND.replace(/[.]/g, '\\.')}'\naction = "allow"\n`);
    }
    this.daemonEnv = env;
    this.cli = new CorralCli(repoRoot, this.socket, env);
    await this.startDaemon();
    this.say(`daemon pid ${this.daemon!.pid} on ${this.socket}; mock model on 127.0.0.1:${this.mock.port}; work dir ${this.work}`);
    // Corral adds the CLI's own hooks to this launch; each hook also keeps its payload here (fixtures).
    mkdirSync(this.hooks, { recursive: true });
    const agentEnv = Object.entries({ ...this.spec.env(ctx), CORRAL_HOOK_CAPTURE: this.hooks }).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
    // Another version than the pinned one lives under its npm alias (`claude-code-2.1.332/bin/claude.exe`),
    // a path no user has: it is launched through a link named as the CLI's command, as a user's PATH
    // entry is, so identity sees the command's name.
    let bin = binPath(this.spec, this.version);
    if (this.version !== this.spec.version) {
      mkdirSync(join(this.work, 'bin'), { recursive: true });
      symlinkSync(bin, join(this.work, 'bin', this.spec.bin));
      bin = join(this.work, 'bin', this.spec.bin);
    }
    // Watching from before the spawn: the pane's first events are seen.
    this.observer = await Observer.start(this.socket, PANE);
    this.t0 = Date.now();
    const spawned = await this.cli.run(['pane', 'spawn', '--name', PANE, '--cwd', this.project, ...agentEnv, '--', bin, ...this.spec.args]);
    if (spawned.code !== 0) throw new Error(`spawn_failed: ${spawned.stderr.trim()}`);
    this.say(`spawned ${spawned.json?.id} pid ${spawned.json?.pid}: ${bin} (${this.spec.id} ${this.version})`);
  }

  /** Starts `corral daemon` on the run's socket (it starts the pty host, or attaches to the one running) and waits until it answers. */
  private async startDaemon(): Promise<void> {
    const logFd = openSync(join(this.work, 'daemon.log'), 'a');
    this.daemon = spawn(process.execPath, [join(repoRoot, 'bin', 'corral'), '--socket', this.socket, 'daemon', '--log-level', 'debug'], {
      cwd: this.home,
      env: this.daemonEnv,
      stdio: ['ignore', logFd, logFd],
    });
    const deadline = Date.now() + 30_000 * this.patience;
    for (;;) {
      const status = await this.cli.run(['server', 'status']);
      if (status.code === 0) break;
      if (Date.now() > deadline) throw new Error(`daemon_not_ready: ${status.stderr.trim()}`);
      await sleep(200);
    }
  }

  /**
   * Ends the daemon with `signal` (SIGTERM is the service restart, SIGKILL a crash), waits until it is
   * gone, starts a new one on the same socket and watches it. Returns the time without a daemon.
   */
  async restartDaemon(signal: 'SIGTERM' | 'SIGKILL'): Promise<{ downAt: number; upAt: number; oldPid: number; newPid: number; resume: string }> {
    const old = this.daemon!;
    this.observer?.dispose();
    const exited = new Promise<void>((resolve) => (old.exitCode !== null || old.signalCode !== null ? resolve() : old.once('exit', () => resolve())));
    const downAt = Date.now();
    old.kill(signal);
    await exited;
    await this.startDaemon();
    const upAt = Date.now();
    this.observer = await Observer.start(this.socket, PANE, this.observer ?? undefined);
    return { downAt, upAt, oldPid: old.pid!, newPid: this.daemon!.pid!, resume: this.observer.resume ?? '' };
  }

  async corral(args: string[]): Promise<CliRun> {
    const run = await this.cli.run(args);
    const json = run.json ? JSON.stringify(run.json) : run.stdout.trim();
    this.log.push(`  $ corral ${args.join(' ')} -> exit ${run.code} in ${run.endedAt - run.startedAt} ms: ${json.slice(0, 2000)} ${run.stderr.trim()}`);
    return run;
  }

  /** `corral agent wait live --until S --timeout T [...]`, with the time it took. */
  async wait(until: string[], timeoutMs: number, extra: string[] = []): Promise<CliRun> {
    return this.corral(['agent', 'wait', PANE, '--until', until.join(','), '--timeout', String(Math.round(timeoutMs * this.patience)), ...extra]);
  }

  async seq(): Promise<number> {
    const list = await this.corral(['agent', 'list']);
    return Number(list.json?.seq ?? 0);
  }

  /** The rule and evidence that decided now, from `corral agent explain`. */
  async explain(label: string): Promise<string> {
    const run = await this.corral(['agent', 'explain', PANE]);
    const info = run.json?.agent;
    const arbiter = run.json?.arbiter;
    const detection = run.json?.detection;
    const pending = arbiter?.pendingDebounce;
    const summary = `${label}: state ${info?.state} (raw ${info?.rawState}) decided by ${arbiter?.decidedBy} (${info?.source})` +
      (detection ? `; screen says ${detection.state} by rule ${detection.rule?.id ?? `none (${detection.fallbackReason})`} of ${detection.manifest?.id ?? ''} ${detection.manifest?.version ?? ''}` : '; no detection') +
      (pending ? `; pending ${pending.state} in ${pending.remainingMs} ms` : '') +
      reportsSummary(arbiter);
    this.say(`explain ${summary}`);
    return summary;
  }

  /**
   * Answers by the id of the prompt's choice whose label matches (the prompt from `corral agent get`,
   * which binds the answer to its id), else as `otherwise` says. The reply must never name the dialog
   * it answered. Returns the run and the prompt answered.
   */
  async answer(which: Answer, label: string): Promise<{ run: CliRun; prompt: any; how: string }> {
    const prompt = (await this.corral(['agent', 'get', PANE])).json?.prompt;
    const choice = (prompt?.choices ?? []).find((c: any) => which.label.test(c.label) && c.keys.length > 0);
    const other = which.otherwise;
    const args = choice ? [choice.id] : 'choice' in other ? [String(other.choice)] : ['--keys', ...other.keys];
    const how = choice ? `choice id ${choice.id} of ${prompt.id} (${prompt.kind}, keys ${choice.keys.join(' ')})`
      : `${args.join(' ')}: the prompt ${prompt ? `${prompt.id} (${prompt.kind}) offers ${JSON.stringify((prompt.choices ?? []).map((c: any) => `${c.id}[${c.keys.join(' ')}]`))}` : 'is absent'}`;
    if (!choice) this.record(`${label} answer`, 'NOTE', `no choice labelled ${which.label} with keys; answering ${how}`);
    let run = await this.corral(['agent', 'answer', PANE, ...args, '--timeout', String(10_000 * this.patience)]);
    if (run.code === 124 && !choice && 'choice' in other) {
      // The digit only moved the selection: Enter submits it.
      this.record(`${label} answer`, 'NOTE', `\`agent answer ${other.choice}\` left it blocked after ${10 * this.patience} s; answering with Enter`);
      run = await this.corral(['agent', 'answer', PANE, '--keys', 'Enter', '--timeout', String(10_000 * this.patience)]);
    }
    const reply = run.json;
    if (run.code === 0 && prompt && reply?.prompt?.id === prompt.id) {
      this.record(`${label} reply`, 'FAIL', `the reply (outcome ${reply.outcome}) names ${prompt.id}, the dialog it answered`);
    }
    return { run, prompt, how };
  }

  /** Keeps a done lag (see `doneLags`) when both times are known. */
  lag(step: string, screenAt: number | null, publishedAt: number | undefined, rule: string | undefined): void {
    if (screenAt !== null && publishedAt !== undefined) this.doneLags.push({ step, ms: publishedAt - screenAt, rule: rule ?? '?' });
  }

  /**
   * `corral agent prompt`, paced by the screen: the text is typed (`--no-submit`), Enter goes only once
   * the screen shows the agent took the text and has stopped redrawing, then the agent must start. On a
   * loaded machine an agent can read a paste and the Enter after it in one go and keep the Enter as a
   * newline (Gemini CLI under load 30: the prompt sat in its composer); a fixed pause cannot know when the
   * agent has read the paste, the screen can. If the agent still does not start and the text still sits
   * in the composer, that is a failed submit: it is recorded and Enter is pressed so the run goes on.
   */
  async promptAndWork(step: string, text: string): Promise<{ prompt: CliRun; working: CliRun } | null> {
    const copies = (screen: string) => screen.split(text).length - 1;
    const before = copies(this.observer!.screen);
    const typed = await this.corral(['agent', 'prompt', PANE, '--no-submit', text]);
    if (typed.code !== 0) {
      this.record(`${step} prompt`, 'FAIL', `exit ${typed.code}: ${typed.stderr.trim()}`);
      return null;
    }
    const deadline = Date.now() + 60_000 * this.patience;
    while (copies(this.observer!.screen) <= before && Date.now() < deadline) await sleep(SCREEN_POLL_MS);
    if (copies(this.observer!.screen) <= before) {
      this.record(`${step} prompt typed`, 'FAIL', `the typed text never showed on screen within ${60 * this.patience} s; screen:\n${this.screenTail(8)}`);
      return null;
    }
    // The agent's redraw after the paste is over: the screen unchanged for 500 ms.
    while (Date.now() - this.observer!.changedAt < 500 && Date.now() < deadline) await sleep(SCREEN_POLL_MS);
    const prompt = await this.corral(['pane', 'send', PANE, '--keys', 'Enter']);
    let working = await this.wait(['working', 'blocked'], 15_000);
    if (working.code !== 0 && copies(this.observer!.screen) > before && this.observer!.screen.split('\n').some((line) => line.includes(text) && /^\s*[>›❯│┃*]/.test(line))) {
      this.record(`${step} prompt submitted`, 'FAIL',
        `Enter was sent once the screen showed the text, but the agent did not start within ${15 * this.patience} s and the text is still in its composer; pressing Enter again; screen:\n${this.screenTail(8)}`);
      await this.corral(['pane', 'send', PANE, '--keys', 'Enter']);
      working = await this.wait(['working', 'blocked'], 15_000);
    }
    return { prompt, working };
  }

  /** Whether the probe sees `pattern` within `ms`: its last poll may be up to one period older than a wait's answer. */
  async screenShows(pattern: RegExp, ms = 2000): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (pattern.test(this.observer!.screen)) return true;
      if (Date.now() > deadline) return false;
      await sleep(SCREEN_POLL_MS);
    }
  }

  screenTail(lines = 12): string {
    const screen = this.observer?.screen ?? '';
    return screen.split('\n').filter((l) => l.trim()).slice(-lines).join('\n');
  }

  async stop(keep: boolean): Promise<void> {
    this.observer?.dispose();
    const pane = await this.cli?.run(['pane', 'kill', PANE]).catch(() => null);
    if (pane && pane.code !== 0) this.log.push(`pane kill: exit ${pane.code} ${pane.stderr.trim()}`);
    if (this.daemon?.pid) {
      try { this.daemon.kill('SIGTERM'); } catch { /* gone */ }
    }
    await sleep(1500);
    const leftovers = processesUsing(this.home);
    if (leftovers.length) {
      this.say(`ending leftovers: ${leftovers.map((pid) => `${pid} ${commandLine(pid).slice(0, 80)}`).join('; ')}`);
      await endAll(leftovers);
    }
    await this.mock?.close();
    writeFileSync(join(this.work, 'live.log'), this.log.join('\n') + '\n');
    const screens = (this.observer?.screens ?? []).map((sample) =>
      [`=== ${this.rel(sample.at)} title ${JSON.stringify(sample.title)}`, ...sample.text.split('\n').filter((l) => l.trim())].join('\n'));
    writeFileSync(join(this.work, 'screens.log'), screens.join('\n') + '\n');
    if (!keep) rmSync(this.work, { recursive: true, force: true });
    else this.say(`kept ${this.work} (daemon.log, mock-model.log, live.log)`);
  }
}

/** In-band and hook reports the arbiter holds (OSC 7501 from Codex, for one) and the last it refused. */
function reportsSummary(arbiter: any): string {
  const reports = (arbiter?.evidence ?? []).filter((e: any) => e.kind === 'report');
  const refused = arbiter?.rejections ?? [];
  const last = refused[refused.length - 1];
  return (reports.length ? `; reports ${reports.map((e: any) => `${e.source}=${e.value}${e.authoritative ? '' : ' (not authoritative)'}${e.decided ? ' (decided)' : ''}`).join(', ')}` : '') +
    (last ? `; ${refused.length} refused, last ${last.source} ${last.reason}: ${last.summary}` : '');
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const secs = (ms: number | null | undefined): string => (ms === null || ms === undefined ? '?' : `${(ms / 1000).toFixed(2)}s`);

async function step1Identity(run: AgentRun): Promise<void> {
  const deadline = Date.now() + run.spec.startupTimeoutMs;
  let info: any = null;
  while (Date.now() < deadline) {
    info = (await run.corral(['agent', 'get', PANE])).json;
    if (info?.agent) break;
    await sleep(250);
  }
  const pane = (await run.corral(['pane', 'get', PANE])).json;
  const proc = pane?.process;
  const where = `foreground pid ${proc?.pid} exe ${proc?.exe} argv ${JSON.stringify(proc?.argv)}`;
  if (info?.agent === run.spec.id && info.identity === 'process') {
    run.record('1 identity', 'PASS', `agent ${info.agent} identity ${info.identity} after ${run.rel(Date.now())}; ${where}`);
  } else {
    run.record('1 identity', 'FAIL', `agent ${info?.agent} identity ${info?.identity}; ${where}`);
    await run.explain('identity');
  }
}

async function step2Startup(run: AgentRun): Promise<void> {
  // The first dialog's patterns (a CLI's versions draw the same dialog differently).
  const firstLabel = run.spec.dialogs?.[0]?.label;
  const patterns = (run.spec.dialogs ?? []).filter((d) => d.label === firstLabel).map((d) => d.pattern.source);
  const dialog = patterns.length ? { pattern: new RegExp(patterns.join('|')) } : undefined;
  const answer = ANSWERS[run.spec.id]?.trust;
  if (dialog && answer) {
    run.observer!.arm('trust', dialog.pattern);
    const blocked = await run.wait(['blocked'], run.spec.startupTimeoutMs);
    const onScreen = await run.screenShows(dialog.pattern);
    if (blocked.code === 0 && onScreen) {
      const change = run.observer!.changeTo('blocked', 0);
      run.record('2 trust dialog blocked', 'PASS',
        `blocked at ${change ? run.rel(change.event.ts) : '?'} (dialog on screen at ${run.rel(run.observer!.seenAt('trust') ?? 0)}, rule ${change?.event.data.source})`);
    } else {
      run.record('2 trust dialog blocked', 'FAIL', `wait exit ${blocked.code} (${blocked.stderr.trim()}); dialog on screen: ${onScreen}; screen:\n${run.screenTail()}`);
    }
    await run.explain('trust dialog');
    const { run: answered, how } = await run.answer(answer, '2 trust');
    if (answered.code === 0) {
      run.record('2 trust answered', 'PASS', `agent answer ${how} -> outcome ${answered.json?.outcome}, ${answered.json?.state} in ${answered.json?.elapsedMs} ms` +
        (answered.json?.prompt ? `, next ${answered.json.prompt.id} (${answered.json.prompt.kind}: ${JSON.stringify(answered.json.prompt.text).slice(0, 120)})` : ''));
      // A second start-up dialog (Claude Code's offer of auto mode, drawn a moment after the trust
      // dialog left): keep asking before each tool, as before.
      let next = answered.json?.outcome === 'next' ? answered.json.prompt : null;
      if (!next) {
        const settled = await run.wait(['idle', 'blocked'], run.spec.startupTimeoutMs, ['--stable', '2000']);
        if (settled.json?.states?.[PANE] === 'blocked') next = (await run.corral(['agent', 'get', PANE])).json?.prompt ?? null;
      }
      if (next) {
        const keep = (next.choices ?? []).find((c: any) => /^no\b|not now|manual|keep/i.test(c.label) && c.keys.length > 0);
        const again = await run.corral(['agent', 'answer', PANE, ...(keep ? [keep.id] : ['--keys', 'Enter']), '--timeout', String(10_000 * run.patience)]);
        run.record('2 second dialog answered', again.code === 0 ? 'NOTE' : 'FAIL', `${keep ? keep.id : 'Enter'} -> exit ${again.code} outcome ${again.json?.outcome} ${again.stderr.trim()}`);
      }
    } else {
      run.record('2 trust answered', 'FAIL', `agent answer exit ${answered.code}: ${answered.stderr.trim()}; screen:\n${run.screenTail()}`);
      await run.explain('after trust answer');
      if (dialog.pattern.test(run.observer!.screen)) await run.corral(['pane', 'send', PANE, '--keys', 'Enter']);
    }
  }
  // A notice drawn over the composer at start (Cline's promotion) is closed with a key, as a user would.
  const notices = (run.spec.dialogs ?? []).filter((d) => d.notice);
  if (notices.length) {
    const either = new RegExp([...notices.map((d) => d.pattern.source), run.spec.idle.source].join('|'), 'm');
    await run.screenShows(either, run.spec.startupTimeoutMs);
    await sleep(2000);
    const notice = notices.find((d) => d.pattern.test(run.observer!.screen));
    if (notice) {
      const state = (await run.corral(['agent', 'get', PANE])).json?.state;
      run.record('2 start-up notice', 'NOTE', `a notice over the composer reads ${state}; closed with ${JSON.stringify(notice.keys)}`);
      const named: Record<string, string> = { '\x1b': 'Escape', '\r': 'Enter' };
      for (const key of [notice.keys].flat()) await run.corral(['pane', 'send', PANE, '--keys', named[key] ?? key]);
    }
  }
  // Typing before the composer is ready is lost: want idle held for 2 s.
  const idle = await run.wait(['idle'], run.spec.startupTimeoutMs, ['--stable', '2000']);
  const composer = await run.screenShows(run.spec.idle);
  const info = (await run.corral(['agent', 'get', PANE])).json;
  if (idle.code === 0 && composer) {
    run.record('2 idle at start', 'PASS', `${info?.state} (seen ${info?.seen}) since ${run.rel(info?.stateSince ?? 0)} by ${info?.source}`);
  } else {
    run.record('2 idle at start', 'FAIL', `wait exit ${idle.code} (${idle.stderr.trim()}), state ${info?.state} by ${info?.source}; composer on screen: ${composer}; screen:\n${run.screenTail()}`);
  }
  await run.explain('idle at start');
  // Identity must survive the restart some CLIs do after the dialog (Gemini relaunches its node child).
  if (info?.agent !== run.spec.id || info?.identity !== 'process') {
    run.record('2 identity after startup', 'FAIL', `agent ${info?.agent} identity ${info?.identity}`);
  }
}

async function step3SlowTurn(run: AgentRun): Promise<void> {
  const obs = run.observer!;
  const seq = await run.seq();
  obs.arm('working-cue', run.spec.working);
  obs.arm('answer-end', new RegExp(SLOW_ANSWER_END));
  const sent = await run.promptAndWork('3', 'Please answer slowly');
  if (!sent) return;
  const { prompt, working } = sent;
  // Working may be published from the title before the cue is drawn: give the probe a moment to see it.
  await run.screenShows(run.spec.working);
  const toWorking = obs.changeTo('working', prompt.startedAt);
  if (working.code === 0 && toWorking) {
    run.record('3 prompt -> working', 'PASS',
      `prompt sent ${run.rel(prompt.startedAt)} (CLI returned after ${prompt.endedAt - prompt.startedAt} ms), working published ${run.rel(toWorking.event.ts)} ` +
      `(${toWorking.event.ts - prompt.startedAt} ms after the prompt began; rule ${toWorking.event.data.source}); ` +
      `working cue on screen ${obs.seenAt('working-cue') ? run.rel(obs.seenAt('working-cue')!) : 'never seen by the probe'}`);
  } else {
    run.record('3 prompt -> working', 'FAIL', `wait exit ${working.code} (${working.stderr.trim()}); screen:\n${run.screenTail()}`);
  }
  await run.explain('working');
  const done = await run.wait(['idle'], 120_000, ['--since-seq', String(seq)]);
  const endOnScreen = await run.screenShows(new RegExp(SLOW_ANSWER_END));
  const answerEnd = obs.seenAt('answer-end');
  const toDone = obs.stateChanges().find((e) => ['idle', 'done'].includes(e.event.data.to) && e.event.ts >= prompt.startedAt);
  const info = (await run.corral(['agent', 'get', PANE])).json;
  run.lag('3 slow turn', answerEnd, toDone?.event.ts, toDone?.event.data.source);
  if (done.code === 0 && endOnScreen) {
    run.record('3 wait --until idle --since-seq', 'PASS',
      `returned after ${secs(done.json?.elapsedMs)} in state ${done.json?.states?.[PANE]}; answer end on screen ${answerEnd ? run.rel(answerEnd) : '?'}, ` +
      `${toDone?.event.data.to} published ${toDone ? run.rel(toDone.event.ts) : '?'} (${toDone && answerEnd ? toDone.event.ts - answerEnd : '?'} ms after the screen; rule ${toDone?.event.data.source}); now ${info?.state} seen ${info?.seen}`);
  } else {
    run.record('3 wait --until idle --since-seq', 'FAIL',
      `wait exit ${done.code} after ${secs(done.json?.elapsedMs)} state ${done.json?.states?.[PANE]}; answer end on screen: ${endOnScreen}; screen:\n${run.screenTail()}`);
  }
  if (info?.state !== 'done') run.record('3 done after the turn', 'FAIL', `state ${info?.state} seen ${info?.seen} (no client looked at the pane, so it should read done)`);
  await run.explain('after the slow turn');
}

async function step4Permission(run: AgentRun): Promise<void> {
  const obs = run.observer!;
  const permission = run.spec.permission;
  if (!permission) {
    run.record('4 permission', 'NOTE', 'this CLI runs tools without asking: no permission prompt to check');
    return;
  }
  // The composer must be ready again before typing (Qwen runs a side request after each turn).
  await run.wait(['idle'], 20_000, ['--stable', '1500']);
  const seq = await run.seq();
  obs.arm('permission', permission);
  obs.arm('tool-end', new RegExp(TOOL_ANSWER_END));
  const sent = await run.promptAndWork('4', 'Use the shell to create a file');
  if (!sent) return;
  const { prompt } = sent;
  const blocked = await run.wait(['blocked'], 60_000, ['--since-seq', String(seq)]);
  const permissionShown = await run.screenShows(permission);
  const onScreen = obs.seenAt('permission');
  const toBlocked = obs.changeTo('blocked', prompt.startedAt);
  if (blocked.code === 0 && permissionShown) {
    run.record('4 blocked on permission', 'PASS',
      `after ${secs(blocked.json?.elapsedMs)}; prompt on screen ${onScreen ? run.rel(onScreen) : '?'}, blocked published ${toBlocked ? run.rel(toBlocked.event.ts) : '?'} ` +
      `(${toBlocked && onScreen ? toBlocked.event.ts - onScreen : '?'} ms after the screen; rule ${toBlocked?.event.data.source})`);
  } else {
    run.record('4 blocked on permission', 'FAIL', `wait exit ${blocked.code} (${blocked.stderr.trim()}) state ${blocked.json?.states?.[PANE]}; screen:\n${run.screenTail()}`);
    await run.explain('permission (failed)');
    return;
  }
  await run.explain('blocked');
  const answerAt = Date.now();
  const { run: answered, how } = await run.answer(ANSWERS[run.spec.id]!.permission, '4 permission');
  const left = obs.stateChanges().find((e) => e.event.ts >= answerAt && e.event.data.from === 'blocked');
  if (answered.code === 0) {
    run.record('4 answer', 'PASS', `agent answer ${how} -> outcome ${answered.json?.outcome}, ${answered.json?.state} in ${answered.json?.elapsedMs} ms; prompt left the screen ${obs.goneAt('permission') ? run.rel(obs.goneAt('permission')!) : '?'}, ` +
      `${left?.event.data.to} published ${left ? run.rel(left.event.ts) : '?'} (rule ${left?.event.data.source})`);
  } else {
    run.record('4 answer', 'FAIL', `exit ${answered.code}: ${answered.stderr.trim()}; screen:\n${run.screenTail()}`);
  }
  const done = await run.wait(['idle'], 60_000, ['--since-seq', String(seq)]);
  const toolShown = await run.screenShows(new RegExp(TOOL_ANSWER_END));
  const toolEnd = obs.seenAt('tool-end');
  const toDone = obs.stateChanges().find((e) => ['idle', 'done'].includes(e.event.data.to) && e.event.ts >= answerAt);
  const proof = existsSync(join(run.project, 'capture-proof.txt'));
  run.lag('4 tool turn', toolEnd, toDone?.event.ts, toDone?.event.data.source);
  if (done.code === 0 && toolShown && proof) {
    run.record('4 back to idle', 'PASS', `after ${secs(done.json?.elapsedMs)}; the command ran (capture-proof.txt exists); closing answer on screen ${toolEnd ? run.rel(toolEnd) : '?'}, ` +
      `${toDone?.event.data.to} published ${toDone ? run.rel(toDone.event.ts) : '?'} (${toDone && toolEnd ? toDone.event.ts - toolEnd : '?'} ms after the screen; rule ${toDone?.event.data.source})`);
  } else {
    run.record('4 back to idle', 'FAIL', `wait exit ${done.code} state ${done.json?.states?.[PANE]}; proof file: ${proof}; screen:\n${run.screenTail()}`);
  }
  await run.explain('after the tool turn');
}

async function step5Events(run: AgentRun): Promise<void> {
  const events = await run.corral(['events']);
  const lines = events.stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const mine = lines.filter((e: any) => e.pane?.name === PANE);
  const changes = mine.filter((e: any) => e.kind === 'agent.stateChanged');
  const attention = mine.filter((e: any) => e.kind === 'agent.attention');
  for (const e of mine.filter((x: any) => x.kind.startsWith('agent.'))) {
    const d = e.data;
    run.say(`  event ${e.cursor} ${run.rel(e.ts)} ${e.kind} ${d.from ?? d.previous ?? ''}->${d.to ?? d.state ?? d.agent} ${d.source ?? ''} seq ${d.seq}`);
  }
  // A fallback verdict after the first one is a screen no rule knows: show what the probe saw then.
  for (const e of changes.slice(1).filter((x: any) => String(x.data.source).startsWith('fallback'))) {
    const sample = run.observer!.screens.find((x) => x.at >= e.ts) ?? run.observer!.screenAt(e.ts);
    const lines = (sample?.text ?? '').split('\n').filter((l) => l.trim()).slice(-8).map((l) => `      | ${l}`);
    run.say(`  screen near ${e.data.from}>${e.data.to} at ${run.rel(e.ts)} (probe ${sample ? run.rel(sample.at) : '?'}, title ${JSON.stringify(sample?.title)}):\n${lines.join('\n')}`);
  }
  const path = changes.map((e: any) => e.data.to).join(' > ');
  // Expected displayed states after the first verdict: (trust: blocked >) idle/done > working > done > working > blocked > working > done.
  const flaps = changes.filter((e: any, i: number) => i >= 2 && changes[i - 2].data.to === e.data.to && e.ts - changes[i - 2].ts < 1500 && changes[i - 1].data.to !== 'blocked');
  const blockedIn = changes.filter((e: any) => e.data.to === 'blocked').length;
  const doneIn = changes.filter((e: any) => e.data.to === 'done').length;
  const attBlocked = attention.filter((e: any) => e.data.state === 'blocked').length;
  const attDone = attention.filter((e: any) => e.data.state === 'done').length;
  // A start-up dialog is blocked once; a notice (Cline's promotion) is not a question and is not blocked.
  const expectedBlocked = (run.spec.dialogs?.some((d) => !d.notice) ? 1 : 0) + 1;
  const ok = flaps.length === 0 && blockedIn === expectedBlocked && attBlocked === blockedIn && attDone === doneIn && doneIn >= 2;
  run.record('5 events', ok ? 'PASS' : 'FAIL',
    `${changes.length} agent.stateChanged: ${path}; blocked ${blockedIn} (expected ${expectedBlocked}), attention blocked ${attBlocked}, done ${doneIn} with attention done ${attDone}; ` +
    `flaps within 1.5 s: ${flaps.length ? flaps.map((e: any) => `${e.data.from}>${e.data.to} at ${run.rel(e.ts)}`).join(', ') : 'none'}`);
}

/**
 * The prompt ids Corral published for each dialog: every prompt of the blocked stretches (the change
 * to blocked, its attention, each agent.promptChanged), in order. An id change is a defect when the
 * dialog the earlier id named is still drawn (its question's first line and every choice label on the
 * probe's next screen, white space aside): the same dialog must keep its id (docs/protocol.md, "The
 * prompt"). An id change for a new dialog (a second question) is listed, not counted.
 */
function stepPromptIds(run: AgentRun): void {
  const obs = run.observer!;
  type Published = { at: number; kind: string; prompt: any };
  const stretches: Published[][] = [];
  let current: Published[] | null = null;
  for (const { event } of obs.events) {
    if (event.pane?.name !== PANE) continue;
    const d = event.data;
    if (event.kind === 'agent.stateChanged') current = d.to === 'blocked' ? (stretches.push([]), stretches[stretches.length - 1]!) : null;
    const carries = (event.kind === 'agent.stateChanged' && d.to === 'blocked') || event.kind === 'agent.promptChanged' || (event.kind === 'agent.attention' && d.state === 'blocked');
    if (current && carries && d.prompt) current.push({ at: event.ts, kind: event.kind, prompt: d.prompt });
  }
  const squash = (text: string) => text.replace(/\s+/g, '');
  const stillDrawn = (prompt: any, at: number): boolean | null => {
    const lines = [String(prompt.text ?? '').split('\n')[0] ?? '', ...(prompt.choices ?? []).map((c: any) => String(c.label))].map(squash).filter(Boolean);
    const sample = obs.screens.find((x) => x.at >= at);
    if (!lines.length || !sample) return null;
    const screen = squash(sample.text);
    return lines.every((line) => screen.includes(line));
  };
  let defects = 0;
  const parts = stretches.map((stretch) => {
    const ids: string[] = [];
    const notes: string[] = [];
    for (let i = 0; i < stretch.length; i += 1) {
      const { at, kind, prompt } = stretch[i]!;
      if (!ids.length) {
        ids.push(`${prompt.id} (${prompt.kind}${prompt.complete === false ? ', incomplete' : ''}: ${JSON.stringify(String(prompt.text).slice(0, 60))})`);
        continue;
      }
      const before = stretch[i - 1]!.prompt;
      if (before.id === prompt.id) {
        // The same dialog drawn further: say when it became complete under its id.
        if (before.complete === false && prompt.complete === true) notes.push(`${prompt.id} complete by ${kind} at ${run.rel(at)}`);
        continue;
      }
      const same = stillDrawn(before, at);
      if (same) defects += 1;
      ids.push(`${prompt.id} (${prompt.kind}${prompt.complete === false ? ', incomplete' : ''})`);
      notes.push(`${before.id}>${prompt.id} by ${kind} at ${run.rel(at)}: ${same === null ? 'cannot tell if the dialog stayed' : same ? 'THE SAME DIALOG STILL ON SCREEN' : 'a new dialog'}`);
    }
    return `blocked ${stretch[0] ? run.rel(stretch[0].at) : '?'}: ${ids.length} id(s), ${Math.max(0, ids.length - 1)} change(s): ${ids.join(' > ')}${notes.length ? ` [${notes.join('; ')}]` : ''}`;
  });
  run.record('5 prompt ids per dialog', defects === 0 && stretches.length > 0 ? 'PASS' : 'FAIL',
    `${defects} id change(s) while the same dialog stayed on screen; ${parts.join(' | ') || 'no blocked stretch with a prompt'}`);
}

/** The done lags of the run's finished turns (step 3, 4 and both restarts), for the closing note. */
function stepDoneLag(run: AgentRun): void {
  const lags = run.doneLags;
  const worst = lags.length ? Math.max(...lags.map((l) => l.ms)) : null;
  run.record('8 done lag', 'NOTE', `${lags.map((l) => `${l.step} ${l.ms} ms (${l.rule})`).join('; ') || 'none measured'}; worst ${worst ?? '?'} ms (the probe polls every ${SCREEN_POLL_MS} ms)`);
}

/**
 * The CLI's own hooks, added per launch: what they reported (the payloads kept by CORRAL_HOOK_CAPTURE,
 * mapped as `corral report` maps them), that none was refused, and for each published transition how
 * much earlier the hook reported that state than the publish, which the screen decides (negative: the
 * screen was first). "report" is when the hook had its payload (the capture file's time, just before it
 * connects); "hook started" is when the hook process started; "fired" is the CLI's own timestamp of
 * the event, where the payload has one (Gemini CLI). The differences are the hook's start-up.
 */
async function step6Hooks(run: AgentRun): Promise<void> {
  const mapping = HOOK_MAPPINGS[run.spec.id];
  if (!mapping) return;
  const hooks = readdirSync(run.hooks).flatMap((file) => {
    const at = Number(file.split('-')[1]);
    try {
      const payload = JSON.parse(readFileSync(join(run.hooks, file), 'utf8'));
      const action = mapping.map(payload);
      const fired = Date.parse(typeof payload.timestamp === 'string' ? payload.timestamp : '');
      const started = Number(file.split('-')[3]?.replace(/\.json$/, ''));
      const event = [payload.hook_event_name ?? payload.type, payload.notification_type].filter(Boolean).join(':');
      return [{ file, at, fired: Number.isFinite(fired) ? fired : null, started: Number.isFinite(started) && started > 0 ? started : null, state: action.kind === 'state' ? action.state : action.kind, event }];
    } catch {
      return [];
    }
  }).sort((a, b) => a.at - b.at);
  for (const hook of hooks) run.say(`  hook ${run.rel(hook.at)}${hook.started ? ` (started ${run.rel(hook.started)})` : ''}${hook.fired ? ` (fired ${run.rel(hook.fired)})` : ''} ${hook.event} -> ${hook.state}`);
  const explain = (await run.corral(['agent', 'explain', PANE])).json;
  const refused = (explain?.arbiter?.rejections ?? []).filter((r: any) => String(r.source).startsWith('hook:'));
  const events = (await run.corral(['events'])).stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const changes = events.filter((e: any) => e.pane?.name === PANE && e.kind === 'agent.stateChanged');
  const leads: string[] = [];
  for (const change of changes) {
    const state = change.data.to === 'done' ? 'idle' : change.data.to;
    const near = hooks.filter((h) => h.state === state && Math.abs(change.ts - h.at) < 15_000).sort((a, b) => Math.abs(change.ts - a.at) - Math.abs(change.ts - b.at))[0];
    if (near) {
      const fired = `${near.started ? `, hook started ${change.ts - near.started} ms` : ''}${near.fired ? `, fired ${change.ts - near.fired} ms` : ''}`;
      leads.push(`${change.data.from}>${change.data.to}: report ${change.ts - near.at} ms${fired} (${near.event} ${run.rel(near.at)}, published ${run.rel(change.ts)} by ${change.data.source})`);
    }
  }
  const states = new Set<string>(hooks.map((h) => h.state));
  // Codex's notify runs only when a turn ends: its hooks can report idle and nothing else.
  const expected = run.spec.id === 'codex' ? ['idle'] : ['working', 'blocked', 'idle'];
  const ok = expected.every((s) => states.has(s)) && refused.length === 0;
  run.record('6 hooks', ok ? 'PASS' : 'FAIL',
    `${hooks.length} hook payloads (${[...states].join(', ')}); refused ${refused.length}${refused.length ? `: ${refused.map((r: any) => r.reason).join(', ')}` : ''}; ` +
    `hook lead per transition: ${leads.join('; ') || 'none matched'}`);
}

/**
 * The daemon restarted in the middle of a turn: the mock holds its answer until the new daemon has
 * recovered the pane, so the restart lands mid-turn however loaded the machine is. The pane must come
 * back with the same id and process, read working (published once, marked recovered, not a new turn),
 * and when the answer ends the turn must be reported as done, with its attention event.
 */
async function step7RestartMidTurn(run: AgentRun, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  const step = `7 restart mid-turn (${signal})`;
  await run.wait(['idle'], 20_000, ['--stable', '1500']);
  const before = (await run.corral(['pane', 'get', PANE])).json;
  const sent = await run.promptAndWork(step, 'Please keep answering through a restart');
  if (!sent) return;
  if (sent.working.code !== 0) {
    run.record(`${step}: working`, 'FAIL', `wait exit ${sent.working.code} (${sent.working.stderr.trim()}); screen:\n${run.screenTail()}`);
    return;
  }
  // Let the held answer stream for a moment, so the restart lands while tokens arrive.
  await sleep(3000);
  const stateBefore = (await run.corral(['agent', 'get', PANE])).json?.state;
  const { downAt, upAt, oldPid, newPid, resume } = await run.restartDaemon(signal);
  run.say(`daemon ${oldPid} ended with ${signal} in state ${stateBefore}; daemon ${newPid} answering after ${upAt - downAt} ms`);
  // The event log is kept across a restart: the observer's cursor and epoch resume on the new daemon.
  run.record(`${step}: events resumed`, resume.startsWith('resumed') ? 'PASS' : 'FAIL', resume);
  const obs = run.observer!;
  const pane = (await run.corral(['pane', 'get', PANE])).json;
  const samePane = pane?.id === before?.id && pane?.pid === before?.pid && pane?.recovered === true;
  run.record(`${step}: pane recovered`, samePane ? 'PASS' : 'FAIL',
    `before ${before?.id} pid ${before?.pid}; after ${pane?.id} pid ${pane?.pid} state ${pane?.state} recovered ${pane?.recovered}`);
  // The state the new daemon recomputed from the replayed screen (the first other than unknown), marked recovered.
  const first = await waitFor(() => obs.stateChanges().find((e) => e.event.data.to !== 'unknown'), 20_000 * run.patience);
  const info = (await run.corral(['agent', 'get', PANE])).json;
  const published = obs.stateChanges().slice(0, first ? obs.stateChanges().indexOf(first) + 1 : undefined);
  const recoveredOk = first?.event.data.to === 'working' && published.every((e) => e.event.data.recovered === true) && info?.agent === run.spec.id && info?.identity === 'process';
  run.record(`${step}: working after the restart`, recoveredOk ? 'PASS' : 'FAIL',
    `published ${published.map((e) => `${e.event.data.from}>${e.event.data.to}${e.event.data.recovered ? ' (recovered)' : ''} by ${e.event.data.source} at ${run.rel(e.event.ts)}`).join(', ') || 'nothing'}; ` +
    `agent ${info?.agent} identity ${info?.identity} state ${info?.state}`);
  await run.explain('recovered mid-turn');
  const seq = await run.seq();
  const releasedAt = Date.now();
  const ends = run.mock!.release();
  // The end word may wrap where the pane is narrow (Codex breaks it at its hyphens).
  const endPattern = new RegExp((ends.length ? ends : [HELD_ANSWER_END]).map((end) => [...end].join('\\s*')).join('|'));
  obs.arm('held-end', endPattern);
  run.say(`released the held answer (${ends.join(', ') || 'none was held'})`);
  const done = await run.wait(['idle'], 60_000, ['--since-seq', String(seq)]);
  const endOnScreen = ends.length > 0 && (await run.screenShows(endPattern));
  const after = (await run.corral(['agent', 'get', PANE])).json;
  const changes = obs.stateChanges();
  const toDone = changes.find((e) => e.event.ts >= releasedAt && e.event.data.to === 'done');
  const attention = obs.events.find((e) => e.event.kind === 'agent.attention' && e.event.data.state === 'done' && e.event.ts >= releasedAt);
  // No new turn: nothing went to working but the recovered verdict.
  const newTurn = changes.find((e) => e.event.data.to === 'working' && !e.event.data.recovered);
  const endAt = obs.seenAt('held-end');
  run.lag(`7 ${signal} turn`, endAt, toDone?.event.ts, toDone?.event.data.source);
  const ok = done.code === 0 && endOnScreen && after?.state === 'done' && toDone !== undefined && attention !== undefined && newTurn === undefined;
  run.record(`${step}: turn done`, ok ? 'PASS' : 'FAIL',
    `wait exit ${done.code} after ${secs(done.json?.elapsedMs)}; answer end on screen ${endAt ? run.rel(endAt) : endOnScreen}; ` +
    `${toDone ? `done published ${run.rel(toDone.event.ts)} (${endAt ? toDone.event.ts - endAt : '?'} ms after the screen; rule ${toDone.event.data.source})` : 'no done published'}; ` +
    `attention done: ${attention ? 'yes' : 'no'}; now ${after?.state} seen ${after?.seen}; states after the restart: ${changes.map((e) => `${e.event.data.to}${e.event.data.recovered ? ' (recovered)' : ''}`).join(' > ')}` +
    (newTurn ? `; a new turn was reported at ${run.rel(newTurn.event.ts)}` : '') +
    (ok ? '' : `; screen:\n${run.screenTail()}`));
  await run.explain('after the restarted turn');
}

/**
 * Usage: Corral's figures for the agent (read from its own record, docs/usage.md) against the mock's
 * own count of what its answers said they cost (agent-clis/mock-usage.ts), once both have settled.
 * Every answer's figures are its own, so the answers Corral counted are found exactly: equal to all
 * of them passes; equal to some (an agent keeps side requests out of its record) is a note naming
 * the answers left out; `unknown` is a note for an agent Corral has no reader for and a failure for
 * one it has; a sum that no set of answers makes fails (a miscount).
 */
async function stepUsage(run: AgentRun): Promise<void> {
  const key = (t: any): string => `${t.input}/${t.output}/${t.cacheRead}/${t.cacheWrite}`;
  let usage: any;
  let mock = run.mock!.usage();
  // Codex names its record at a turn's end and a record is read every second: both settle within seconds.
  const deadline = Date.now() + 15_000 * run.patience;
  for (;;) {
    usage = (await run.corral(['agent', 'get', PANE])).json?.usage;
    mock = run.mock!.usage();
    if ((typeof usage === 'object' && countedAnswers(mock.answers, usage.tokens)?.length === mock.answers.length) || Date.now() > deadline) break;
    await sleep(500);
  }
  const said = `mock: ${mock.answers.length} answers, ${mock.main.answers} with tools ${key(mock.main.tokens)}, ${mock.side.answers} without ${key(mock.side.tokens)} (input/output/cacheRead/cacheWrite)`;
  if (usage === undefined || usage === 'unknown') {
    const readers = ['claude', 'codex', 'gemini', 'qwen', 'opencode', 'copilot'];
    run.record('8 usage', readers.includes(run.spec.id) ? 'FAIL' : 'NOTE', `Corral: ${usage ?? 'absent'}; ${said}`);
    return;
  }
  keepRecords(run);
  const counted = countedAnswers(mock.answers, usage.tokens);
  const left = counted === null ? [] : mock.answers.filter((a) => !counted.includes(a.n));
  const verdict = counted === null ? 'FAIL' : left.length === 0 ? 'PASS' : 'NOTE';
  run.record('8 usage', verdict,
    `Corral ${key(usage.tokens)} from ${usage.source} (model ${usage.model}, skipped ${usage.skipped}); ${said}; ` +
    (counted === null ? 'no set of answers sums to it' : left.length === 0 ? 'equal: every answer counted' :
      `equal to answers ${counted.join(', ')}; not in the record: ${left.map((a) => `#${a.n} (${a.kind}, ${a.api}: ${a.what})`).join('; ')}`));
}

/**
 * The approval policy on a real CLI: the mock's shell command, allowed by the policy, runs; on the hook
 * path (docs/policy.md) no dialog is drawn and the agent is never blocked, elsewhere the dialog is answered.
 */
async function stepPolicy(run: AgentRun): Promise<void> {
  await run.wait(['idle'], 20_000, ['--stable', '1500']);
  const seq = await run.seq();
  const since = Date.now();
  const sent = await run.promptAndWork('9', 'Use the shell to create a file');
  if (!sent) return;
  const done = await run.wait(['idle'], 90_000, ['--since-seq', String(seq)]);
  const proof = existsSync(join(run.project, 'capture-proof.txt'));
  const changes = run.observer!.stateChanges().filter((e) => e.event.ts >= since);
  const blocked = changes.filter((e) => e.event.data.to === 'blocked').length;
  const path = changes.map((e) => `${e.event.data.to} +${e.event.ts - since} ms (${e.event.data.source})`).join(', ');
  const log = (await run.corral(['policy', 'log', PANE])).stdout.trim().split('\n').filter(Boolean);
  const decided = log.map((line) => {
    const d = JSON.parse(line);
    return `${d.source} ${d.promptId} ${d.action}${d.answered ? ' answered' : ''} +${d.ts - since} ms`;
  }).join('; ') || 'no decision logged';
  const verdict = done.code === 0 && proof && /allow answered/.test(decided) ? 'PASS' : 'FAIL';
  run.record('9 policy', verdict, `command ran: ${proof}; blocked ${blocked} time(s) on the way (${path}); decisions: ${decided}`);
}

/** Copies each record the daemon read usage from into the run's folder (a fixture for test/fixtures/usage/). */
function keepRecords(run: AgentRun): void {
  const log = readFileSync(join(run.work, 'daemon.log'), 'utf8');
  for (const match of log.matchAll(/"path":"([^"]+)","msg":"reading usage from the agent record"/g)) {
    const path = match[1]!;
    try {
      writeFileSync(join(run.work, `record-${path.split('/').pop()}`), readFileSync(path));
    } catch {
      run.say(`the record ${path} is gone`);
    }
  }
}

/** Polls `probe` until it returns something, or undefined after `ms`. */
async function waitFor<T>(probe: () => T | undefined, ms: number): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await sleep(100);
  }
}

async function runAgent(spec: AgentSpec, version: string, keep: boolean): Promise<void> {
  const run = new AgentRun(spec, version);
  let failed = false;
  const box = sleep(TIME_BOX_MS).then(() => {
    throw new Error(`time_box: ${TIME_BOX_MS / 60000} minutes passed`);
  });
  try {
    await Promise.race([
      (async () => {
        await run.start();
        await step1Identity(run);
        await step2Startup(run);
        await step3SlowTurn(run);
        // LIVE_STEPS=policy: one shell request the policy allows, and which path answered it.
        if (process.env.LIVE_STEPS === 'policy') return await stepPolicy(run);
        await step4Permission(run);
        await stepUsage(run);
        // LIVE_STEPS=usage: the turns and their usage only.
        if (process.env.LIVE_STEPS === 'usage') return;
        await step5Events(run);
        stepPromptIds(run);
        await step6Hooks(run);
        await step7RestartMidTurn(run, 'SIGTERM');
        await step7RestartMidTurn(run, 'SIGKILL');
        stepDoneLag(run);
      })(),
      box,
    ]);
  } catch (error) {
    failed = true;
    run.record('run', 'FAIL', error instanceof Error ? error.message : String(error));
  } finally {
    failed ||= results.some((r) => r.agent === spec.id && r.verdict === 'FAIL');
    await run.stop(keep || failed);
  }
}

const requested = process.argv.slice(2);
const ids = (requested.length ? requested : ORDER).map((arg) => {
  const [id, version] = arg.split('@') as [string, string | undefined];
  const spec = agents[id];
  if (!spec) {
    process.stderr.write(`unknown_agent: ${id}; pass any of ${[...ORDER, ...OTHERS].join(', ')}\n`);
    process.exit(2);
  }
  const chosen = version ?? NEWEST[id] ?? spec.version;
  try {
    if (!existsSync(binPath(spec, chosen))) throw new Error(`not_installed: ${binPath(spec, chosen)} is missing; run npm install in agent-clis`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  return { spec, version: chosen };
});
if (!process.env.CORRAL_CAPTURE_NETNS) {
  if (process.getuid?.() !== 0) {
    process.stderr.write('live_needs_root: the daemon and its panes run in a network namespace with only loopback (unshare -n), which needs root; skipped.\n');
    process.exit(2);
  }
  // Build the CLI bundle once, outside the timings.
  spawnSync(process.execPath, [join(repoRoot, 'bin', 'corral'), '--version'], { stdio: 'ignore' });
  const result = spawnSync(
    'unshare',
    ['-n', '--', 'bash', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, CORRAL_CAPTURE_NETNS: '1' } },
  );
  process.exit(result.status ?? 1);
}
for (const { spec, version } of ids) await runAgent(spec, version, process.env.LIVE_KEEP === '1');
process.stdout.write(`\nSummary (screen probe polls every ${SCREEN_POLL_MS} ms):\n`);
for (const r of results) process.stdout.write(`${r.verdict.padEnd(4)} ${r.agent.padEnd(9)} ${r.step}\n`);
process.exit(results.some((r) => r.verdict === 'FAIL') ? 1 : 0);
