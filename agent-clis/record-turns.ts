// Records the turns the first recorder never had, for Claude Code: a long streamed answer that
// scrolls the screen several times (labelled while it streams and after), the footer-key dialog of
// auto mode, two permission prompts in one turn, Esc in the middle of a turn, and a prompt typed but
// not sent. The OSC 7501 query is answered as a Corral pane answers it, so the CLI's own reports are
// in the recording (screens.md lists them with the labels around them).
// Usage (from the repo root, as root):
//   node --import tsx agent-clis/record-turns.ts claude --version 2.1.332 --sizes 70x20,160x40,250x70
// Writes test/fixtures/streams/<agent>/<version>/<cols>x<rows>-turns/{session.cast,labels.json,screens.md}.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as NodePty from 'node-pty';
import { agents, binPath, type AgentSpec } from './agents.ts';
import { dedupeRuns, killAll, processesUsing, startMock, trimEmpty, type, wrapped, type Label } from './capture-process.ts';
import { LONG_ANSWER_END, TOOL_ANSWER_END } from './mock-model.ts';
import { ScreenWatch, sleep, waitFor, waitForAbsent, waitQuiet } from './screen-watch.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..');
const pty = createRequire(join(repoRoot, 'package.json'))('node-pty') as typeof NodePty;

/** Claude Code 2.1.332 in auto mode, offline: its safety check cannot be reached, so it asks this. */
const AUTO_MODE_DIALOG = /^\s*Auto mode can.t check actions in this session\s*$/m;
/** 2.1.332's permission form lists `❯ No` first and selected, without numbers. */
const NO_FIRST = /^\s*❯ No\s*$/m;
/** Seconds between working labels while the long answer streams. */
const STREAM_LABEL_EVERY_MS = 2500;

async function record(spec: AgentSpec, version: string, cols: number, rows: number): Promise<unknown> {
  const size = `${cols}x${rows}`;
  const relDir = `${spec.id}/${version}/${size}-turns`;
  const outDir = join(repoRoot, 'test', 'fixtures', 'streams', relDir);
  const work = mkdtempSync(join(tmpdir(), `corral-turns-${spec.id}-${size}-`));
  const home = join(work, 'home');
  const project = join(work, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'README.md'), '# capture project\n');
  const mock = await startMock(join(work, 'mock-model.log'));
  const ctx = { port: mock.port, home, project, version };
  spec.setup(ctx);
  // The default permission mode of the newest versions (auto): the footer-key dialog comes from it.
  if (spec.id === 'claude') writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({}));
  const env: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home, TERM: 'xterm-256color', LANG: 'C.UTF-8', COLORTERM: 'truecolor', USER: 'capture', SHELL: '/bin/bash',
    ...spec.env(ctx),
  };
  const child = pty.spawn(binPath(spec, version), spec.args, { name: 'xterm-256color', cols, rows, cwd: project, env, encoding: null });
  const watch = new ScreenWatch(cols, rows, (data) => { watch.cast.input(data, Date.now()); child.write(data); }, { agent: spec.id, agent_version: version, timing: 'recorded' }, { answerStatusQuery: true });
  const cast = watch.cast;
  child.onData((data: string | Buffer) => watch.feed(typeof data === 'string' ? Buffer.from(data, 'utf8') : data));
  const liveDump = setInterval(() => void watch.flush().then(() => writeFileSync(join(work, 'live-screen.txt'), watch.text())), 1000);
  const labels: Label[] = [];
  const notes: string[] = [];
  const press = (keys: string): void => { child.write(keys); cast.input(keys, Date.now()); };
  const mark = async (label: string, state: Label['expect']['state']): Promise<void> => {
    await watch.flush();
    const now = Date.now();
    cast.marker(label, now);
    labels.push({ file: `${relDir}/session.cast`, bytes: cast.bytes, time: cast.seconds(now), agent: spec.id, version, cols, rows, label, expect: { state } });
    notes.push(
      `## ${label} (expect ${state}, byte ${watch.bytes}, ${cast.seconds(now).toFixed(2)} s)`,
      `title: ${JSON.stringify(watch.title)}  progress: ${JSON.stringify(watch.progress)}  output in the last 2 s: ${watch.recentBytes(2000)} B`,
      '', '```', ...trimEmpty(watch.lines()), '```', '',
    );
    process.stdout.write(`[${spec.id} ${version} ${size}] ${label} at ${cast.bytes} bytes\n`);
  };
  const submit = async (text: string): Promise<void> => {
    await type(child, text, cast);
    await waitQuiet(watch, 800);
    press('\r');
  };
  // Labels the long answer while it streams (the end word not yet written, output in the last 0.5 s),
  // then once it is whole and the screen quiet.
  const longAnswer = async (prefix: string, stopEarly: boolean): Promise<void> => {
    const before = watch.bytes;
    await waitFor(watch, /Line \d+ of the long/, 30000, 'the long answer');
    let n = 0;
    const deadline = Date.now() + 60000;
    for (;;) {
      await sleep(STREAM_LABEL_EVERY_MS);
      await watch.flush();
      // Claude Code redraws only the cells that changed, so the end word may never be written whole;
      // on a tall screen the previous answer's end word can still be drawn, so the turn that is
      // interrupted goes by the bytes since its prompt alone.
      const ended = watch.raw().subarray(before).includes(LONG_ANSWER_END);
      if (ended || (!stopEarly && wrapped(LONG_ANSWER_END).test(watch.text()))) break;
      if (Date.now() > deadline) throw new Error('capture_timeout: the long answer did not end within 60 s');
      if (watch.recentBytes(500) === 0) continue;
      await mark(`${prefix}-working-long-answer-${++n}`, 'working');
      if (stopEarly && n >= 2) return;
    }
  };
  let failure: unknown = null;
  try {
    // Start-up: the trust dialog (and any offer after it), then the composer.
    for (let round = 0; round < 6; round++) {
      await waitQuiet(watch, 2000, 30000);
      const text = watch.text();
      const dialog = spec.dialogs?.find((d) => d.pattern.test(text));
      if (dialog) {
        await mark(`00-blocked-startup-${round}`, 'blocked');
        for (const key of [dialog.keys].flat()) { press(key); await sleep(400); }
        await sleep(1500);
        continue;
      }
      if (spec.idle.test(text)) break;
      await sleep(1000);
    }
    await waitFor(watch, spec.idle, 30000, 'the composer');
    await mark('01-idle-startup', 'idle');

    // A long answer, labelled while it streams and after.
    await submit('Please write a long answer');
    await longAnswer('02', false);
    await waitQuiet(watch, 2000, 30000);
    await waitFor(watch, spec.idle, 10000, 'the composer after the long answer');
    await mark('03-idle-after-long-answer', 'idle');

    // Two shell calls in one turn; in auto mode the footer-key dialog comes first.
    await submit('Use the shell twice');
    let prompts = 0;
    let dialogs = 0;
    const permission = spec.permission!;
    for (let step = 0; step < 8; step++) {
      await waitFor(watch, new RegExp(`${AUTO_MODE_DIALOG.source}|${permission.source}|${wrapped(TOOL_ANSWER_END).source}`, 'm'), 30000, 'a dialog or the closing answer');
      await waitQuiet(watch, 2000, 20000);
      const text = watch.text();
      if (AUTO_MODE_DIALOG.test(text)) {
        await mark(`04-blocked-auto-mode-dialog-${++dialogs}`, 'blocked');
        // Enter: stay in auto mode; the action then asks for approval.
        press('\r');
        await waitForAbsent(watch, AUTO_MODE_DIALOG, 10000, 'the auto mode dialog');
        continue;
      }
      if (permission.test(text)) {
        await mark(`05-blocked-permission-${++prompts}`, 'blocked');
        for (const key of NO_FIRST.test(text) ? ['\x1b[B', '\r'] : [spec.approve]) { press(key); await sleep(400); }
        await waitForAbsent(watch, permission, 10000, 'the permission prompt');
        await sleep(700);
        await watch.flush();
        // The turn's next prompt can be up within 0.7 s (250x70): then this is no working moment.
        if (!permission.test(watch.text())) await mark(`06-working-after-approval-${prompts}`, 'working');
        continue;
      }
      break;
    }
    await waitFor(watch, wrapped(TOOL_ANSWER_END), 30000, 'the closing answer');
    await waitQuiet(watch, 2000, 20000);
    await waitFor(watch, spec.idle, 10000, 'the composer after the tools');
    await mark('07-idle-after-tools', 'idle');

    // Esc in the middle of a long answer.
    await submit('Please write another long answer');
    await longAnswer('08', true);
    press('\x1b');
    await waitQuiet(watch, 2000, 20000);
    await waitFor(watch, spec.idle, 10000, 'the composer after Esc');
    await mark('09-idle-after-esc', 'idle');

    // A prompt typed and left unsent.
    await type(child, 'A prompt typed but not sent', cast);
    await waitQuiet(watch, 2000);
    await mark('10-idle-prompt-typed-unsent', 'idle');
  } catch (error) {
    failure = error;
  } finally {
    clearInterval(liveDump);
    await watch.flush();
    try { child.kill('SIGTERM'); } catch { /* gone */ }
    await killAll([...new Set([child.pid, ...processesUsing(home)])]);
    mock.child.kill('SIGTERM');
  }
  const target = failure ? work : outDir;
  if (!failure) {
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
  }
  const reports = watch.osc.map((e) => `- byte ${e.offset}: OSC ${e.code} ${JSON.stringify(e.payload)}`);
  const labelAt = labels.map((l) => `- byte ${l.bytes}: label ${l.label} (${l.expect.state})`);
  const timeline = [...reports, ...labelAt].sort((a, b) => Number(/byte (\d+)/.exec(a)![1]) - Number(/byte (\d+)/.exec(b)![1]));
  writeFileSync(join(target, 'session.cast'), cast.text());
  writeFileSync(join(target, 'labels.json'), JSON.stringify(labels, null, 1) + '\n');
  writeFileSync(join(target, 'screens.md'), [
    `# ${spec.id} ${version} at ${size}: turns (generated by agent-clis/record-turns.ts)`, '',
    ...notes,
    ...(failure ? [`## Ended early: ${(failure instanceof Error ? failure.message : String(failure)).split('\n')[0]}`, ''] : []),
    '## OSC titles, progress and status reports, with the labels, in order', '', ...dedupeRuns(timeline), '',
  ].join('\n'));
  process.stdout.write(`[${spec.id} ${version} ${size}] ${cast.bytes} bytes, ${labels.length} labels; work dir ${work}\n`);
  watch.dispose();
  if (failure) process.stderr.write(`[${spec.id} ${version} ${size}] ${failure instanceof Error ? failure.message : String(failure)}\n`);
  else if (!process.env.CAPTURE_KEEP) rmSync(work, { recursive: true, force: true });
  return failure;
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

const spec = agents[process.argv[2] ?? ''];
if (!spec || spec.permission === null) {
  process.stderr.write('unknown_agent: pass an agent with a permission prompt (claude)\n');
  process.exit(2);
}
const version = option('--version') ?? spec.version;
const sizes = (option('--sizes') ?? '70x20,160x40,250x70').split(',').map((s) => s.split('x').map(Number) as [number, number]);
if (!process.env.CORRAL_CAPTURE_NETNS) {
  if (process.getuid?.() !== 0) {
    process.stderr.write('capture_needs_root: recording runs the CLI in a network namespace with only loopback (unshare -n), which needs root; skipped.\n');
    process.exit(2);
  }
  const result = spawnSync('unshare', ['-n', '--', 'bash', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit', env: { ...process.env, CORRAL_CAPTURE_NETNS: '1' },
  });
  process.exit(result.status ?? 1);
}
let failed = 0;
for (const [cols, rows] of sizes) if (await record(spec, version, cols, rows)) failed++;
process.exitCode = failed ? 1 : 0;
