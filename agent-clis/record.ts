// Records one real agent CLI on a real PTY, driven through idle, working, permission prompt and
// back to idle against the local mock model, inside a network namespace with only loopback.
// Usage (from the repo root):
//   node --import tsx agent-clis/record.ts <agent> [--version V] [--sizes 80x24,120x32]
// Records at every size of SIZES unless --sizes is given, one run per size, and writes
// test/fixtures/streams/<agent>/<version>/<cols>x<rows>/{session.cast,labels.json,screens.md}.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type * as NodePty from 'node-pty';
import { agents, binPath, type AgentSpec } from './agents.ts';
import { dedupeRuns, foregroundGroup, killAll, processesUsing, readsKeys, startMock, trimEmpty, type, wrapped, type Label } from './capture-process.ts';
import { QUESTION_ANSWER_END, QUESTION_TEXT, SLOW_ANSWER_END, TOOL_ANSWER_END } from './mock-model.ts';
import { rawFacts } from './raw-facts.ts';
import { ScreenWatch, sleep, waitFor, waitForAbsent, waitForChange, waitQuiet } from './screen-watch.ts';

/** Every size a CLI is recorded at: a narrow split, common terminals, and a wide full screen. */
const SIZES: [number, number][] = [[60, 20], [80, 24], [100, 30], [120, 32], [160, 45], [220, 60]];
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..');
// node-pty comes from the main install: a CLI in agent-clis may pull in an older, unbuilt copy.
const pty = createRequire(join(repoRoot, 'package.json'))('node-pty') as typeof NodePty;


/** Records one session at one size; resolves to null on success, else the failure. */
async function record(spec: AgentSpec, version: string, COLS: number, ROWS: number): Promise<unknown> {
  const size = `${COLS}x${ROWS}`;
  const relDir = `${spec.id}/${version}/${size}`;
  const outDir = join(repoRoot, 'test', 'fixtures', 'streams', relDir);
  const work = mkdtempSync(join(tmpdir(), `corral-capture-${spec.id}-${size}-`));
  const home = join(work, 'home');
  const project = join(work, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'README.md'), '# capture project\n');
  const mockLog = join(work, 'mock-model.log');
  const mock = await startMock(mockLog);
  const ctx = { port: mock.port, home, project, version };
  spec.setup(ctx);

  const env: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    COLORTERM: 'truecolor',
    USER: 'capture',
    SHELL: '/bin/bash',
    ...spec.env(ctx),
  };
  const bin = binPath(spec, version);
  const child = pty.spawn(bin, spec.args, { name: 'xterm-256color', cols: COLS, rows: ROWS, cwd: project, env, encoding: null });
  // The emulator's answers to terminal queries are input too: the cast keeps them.
  const watch = new ScreenWatch(COLS, ROWS, (data) => { watch.cast.input(data, Date.now()); child.write(data); }, { agent: spec.id, agent_version: version, timing: 'recorded' });
  const cast = watch.cast;
  // encoding: null hands us the raw bytes; session.cast keeps them as UTF-8 text with their times.
  child.onData((data: string | Buffer) => watch.feed(typeof data === 'string' ? Buffer.from(data, 'utf8') : data));
  // The screen as it is now, for a person watching a recording that seems stuck.
  const liveDump = setInterval(() => void watch.flush().then(() => writeFileSync(join(work, 'live-screen.txt'), watch.text())), 1000);
  const labels: Label[] = [];
  const notes: string[] = [];
  const workingLines = new Set<string>();

  const mark = async (label: string, state: Label['expect']['state']): Promise<void> => {
    await watch.flush();
    const now = Date.now();
    cast.marker(label, now);
    labels.push({ file: `${relDir}/session.cast`, bytes: cast.bytes, time: cast.seconds(now), agent: spec.id, version, cols: COLS, rows: ROWS, label, expect: { state } });
    const tree = foregroundGroup(child.pid);
    notes.push(
      `## ${label} (expect ${state}, byte ${watch.bytes})`,
      `title: ${JSON.stringify(watch.title)}  progress: ${JSON.stringify(watch.progress)}  output in the last 2 s: ${watch.recentBytes(2000)} B`,
      '', '```', ...trimEmpty(watch.lines()), '```', '',
      'foreground process group:', '',
      ...tree.map((r) => `- pid ${r.pid} ppid ${r.ppid} comm \`${r.comm}\` exe \`${r.exe}\` argv \`${JSON.stringify(r.argv)}\``),
      '',
    );
    process.stdout.write(`[${spec.id} ${version} ${size}] ${label} at ${cast.bytes} bytes\n`);
  };
  const sampleWorking = async (ms: number): Promise<void> => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      await watch.flush();
      const nonEmpty = watch.lines().filter((line) => line.trim());
      for (const line of nonEmpty.slice(-10)) if (workingLines.size < 80) workingLines.add(line);
      await sleep(120);
    }
  };

  // Answers startup dialogs (labelled blocked) until the composer is drawn and quiet.
  const settleToIdle = async (timeoutMs: number): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    const answered = new Set<string>();
    for (;;) {
      await waitQuiet(watch, 2000, 20000);
      const text = watch.text();
      const dialog = spec.dialogs?.find((d) => d.pattern.test(text) && !answered.has(d.label));
      if (dialog) {
        if (!dialog.notice) await mark(dialog.label, 'blocked');
        for (const key of [dialog.keys].flat()) {
          child.write(key);
          cast.input(key, Date.now());
          await sleep(400);
        }
        answered.add(dialog.label);
        await sleep(1500);
        continue;
      }
      // An answered dialog may stay drawn above the live composer (Gemini CLI after its restart on
      // a tall screen): only a dialog not yet answered holds the start-up back.
      if (spec.idle.test(text) && !spec.dialogs?.some((d) => d.pattern.test(text) && !answered.has(d.label)) && !spec.starting?.test(text) && (!spec.waitForRawMode || readsKeys(child))) return;
      if (Date.now() > deadline) throw new Error(`capture_timeout: no idle composer within ${timeoutMs} ms; screen:\n${text}`);
      await sleep(200);
    }
  };

  // CAPTURE_PATIENCE multiplies every wait on a loaded machine; the labels do not depend on it.
  const patient = (ms: number): number => ms * (spec.patience ?? 1) * Number(process.env.CAPTURE_PATIENCE ?? 1);
  let questionOutcome = 'not tried';
  // Optional: the CLI's question tool. A CLI without one, or a form the keys do not answer, is
  // noted in screens.md and leaves the labels before it intact.
  const askQuestion = async (): Promise<string> => {
    await type(child, 'Ask me a question', cast);
    await waitQuiet(watch, 800);
    child.write('\r');
    cast.input('\r', Date.now());
    const form = new RegExp(QUESTION_TEXT.replace(/[?]/g, '\\?'));
    try {
      await waitFor(watch, form, patient(15000), 'the question form');
    } catch {
      return 'no question form appeared (the request may not offer a question tool: see the mock log)';
    }
    await waitQuiet(watch, 2000);
    await mark('09-blocked-question', 'blocked');
    for (let attempt = 0; attempt < 3; attempt++) {
      child.write(spec.answerQuestion ?? '\r');
      cast.input(spec.answerQuestion ?? '\r', Date.now());
      try {
        await waitFor(watch, wrapped(QUESTION_ANSWER_END), patient(6000), 'the answer after the question');
        await waitQuiet(watch, 2000);
        await waitFor(watch, spec.idle, patient(10000), 'the idle composer after the question');
        await mark('10-idle-after-question', 'idle');
        return `answered with ${JSON.stringify(spec.answerQuestion ?? '\r')} after ${attempt + 1} press(es)`;
      } catch {
        // The form may need a second Enter (select, then submit).
      }
    }
    return 'the question form did not accept the keys';
  };
  let failure: unknown = null;
  try {
    await settleToIdle(patient(spec.startupTimeoutMs));
    await mark('01-idle-startup', 'idle');
    await type(child, 'Please answer slowly', cast);
    // On a loaded machine the echo lags the keys: label only once the whole prompt is drawn.
    await waitFor(watch, /Please answer slowly/, patient(10000), 'the typed prompt');
    await waitQuiet(watch, 800);
    await mark('02-idle-prompt-typed', 'idle');
    const typedScreen = watch.text();
    child.write('\r');
    cast.input('\r', Date.now());
    // Some CLIs take seconds to react to Enter (OpenCode); label only once the screen moved on.
    await waitForChange(watch, typedScreen, patient(10000), 'the screen to react to Enter');
    await waitFor(watch, spec.working, patient(10000), 'the working indicator');
    await sleep(300);
    await mark('03-working-waiting-for-model', 'working');
    await waitFor(watch, /slow scripted answer/, patient(15000), 'the streamed answer');
    await sampleWorking(1500);
    // A CLI that draws the answer only once it is whole (Claude Code on a loaded machine) is not
    // streaming any more: that moment is no working screen.
    await watch.flush();
    if (wrapped(SLOW_ANSWER_END).test(watch.text())) notes.push('## 04-working-streaming: skipped, the whole answer was already on screen', '');
    else await mark('04-working-streaming', 'working');
    await waitFor(watch, wrapped(SLOW_ANSWER_END), patient(20000), 'the end of the answer');
    await waitQuiet(watch, 2000);
    await waitFor(watch, spec.idle, patient(10000), 'the idle composer after the answer');
    await mark('05-idle-turn-done', 'idle');
    await type(child, 'Use the shell to create a file', cast);
    await waitQuiet(watch, 800);
    child.write('\r');
    cast.input('\r', Date.now());
    if (spec.permission) {
      await waitFor(watch, spec.permission, patient(20000), 'the permission prompt');
      await waitQuiet(watch, 2000);
      await mark('06-blocked-permission', 'blocked');
      child.write(spec.approve);
      cast.input(spec.approve, Date.now());
      await waitForAbsent(watch, spec.permission, patient(10000), 'the permission prompt');
      await sleep(700);
      await mark('07-working-after-approval', 'working');
    } else {
      // A CLI without permission prompts (Pi) runs the command at once: nothing to label until idle.
      notes.push('## 06-blocked-permission, 07-working-after-approval: none, this CLI runs tools without asking', '');
    }
    await waitFor(watch, wrapped(TOOL_ANSWER_END), patient(20000), 'the closing answer');
    await waitQuiet(watch, 2000);
    // The answer can be whole while the CLI still shows its working row (Copilot on a loaded machine).
    await waitFor(watch, spec.idle, patient(10000), 'the idle composer after the tool');
    await mark('08-idle-after-tool', 'idle');
    questionOutcome = await askQuestion();
  } catch (error) {
    failure = error;
  } finally {
    clearInterval(liveDump);
    await watch.flush();
    const leftovers = processesUsing(home);
    try { child.kill('SIGTERM'); } catch { /* gone */ }
    await killAll([...new Set([child.pid, ...leftovers, ...processesUsing(home)])]);
    mock.child.kill('SIGTERM');
  }

  // A failed run never overwrites a good recording: its files go to the kept temp folder.
  // A run that failed after the permission label still holds good labels: it is kept, with a note,
  // unless a fuller recording is already there.
  const partial = failure !== null && labels.some((l) => l.label.startsWith(spec.permission ? '06-' : '05-')) && labels.length > existingLabels(outDir);
  const target = failure && !partial ? work : outDir;
  if (!failure || partial) {
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
  }
  const titles = watch.osc.map((e) => `- byte ${e.offset}: OSC ${e.code} ${JSON.stringify(e.payload)}`);
  writeFileSync(join(target, 'session.cast'), cast.text());
  writeFileSync(join(target, 'labels.json'), JSON.stringify(labels, null, 1) + '\n');
  writeFileSync(
    join(target, 'screens.md'),
    [
      `# ${spec.id} ${version} at ${size}: screens at each label (generated by agent-clis/record.ts)`, '',
      ...notes,
      `## Question tool: ${questionOutcome}`, '',
      ...(failure ? [`## Ended early: ${(failure instanceof Error ? failure.message : String(failure)).split('\n')[0]}`, ''] : []),
      '## Distinct bottom lines seen while streaming the answer', '', '```', ...workingLines, '```', '',
      '## OSC titles, progress and status reports, in order', '', ...dedupeRuns(titles), '',
      '## Terminal queries and modes in the stream', '', ...rawFacts(watch.raw()), '',
    ].join('\n'),
  );
  writeFileSync(join(work, 'final-screen.txt'), watch.text());
  process.stdout.write(`[${spec.id} ${version} ${size}] ${cast.bytes} bytes, ${labels.length} labels; work dir ${work}\n`);
  watch.dispose();
  if (failure) {
    process.stderr.write(`[${spec.id} ${version} ${size}] ${failure instanceof Error ? failure.message : String(failure)}\n`);
  } else if (!process.env.CAPTURE_KEEP) {
    rmSync(work, { recursive: true, force: true });
  }
  return failure;
}

function existingLabels(dir: string): number {
  try {
    return (JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as unknown[]).length;
  } catch {
    return 0;
  }
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

const agentId = process.argv[2] ?? '';
const spec = agents[agentId];
const version = option('--version') ?? spec?.version ?? '';
const sizes = option('--sizes')?.split(',').map((s) => s.split('x').map(Number) as [number, number]) ?? SIZES;
if (!spec) {
  process.stderr.write(`unknown_agent: pass one of ${Object.keys(agents).join(', ')}\n`);
  process.exit(2);
}
if (!process.env.CORRAL_CAPTURE_NETNS) {
  if (process.getuid?.() !== 0) {
    process.stderr.write('capture_needs_root: recording runs the CLI in a network namespace with only loopback (unshare -n), which needs root; skipped.\n');
    process.exit(2);
  }
  const result = spawnSync(
    'unshare',
    ['-n', '--', 'bash', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, CORRAL_CAPTURE_NETNS: '1' } },
  );
  process.exit(result.status ?? 1);
}
let failed = 0;
for (const [cols, rows] of sizes) {
  if (await record(spec, version, cols, rows)) failed++;
}
process.exitCode = failed ? 1 : 0;
