// Latency from a permission form reaching the PTY to the policy's answer (its key read by the program),
// against the time to the `agent.attention` event at a subscriber in the same trials: what a person
// watching the event stream would have seen by then. Then the hook path: from the program starting its
// PermissionRequest hook (the one per-launch integration adds) to reading the allow on its stdout,
// against a bare `node -e 0` started the same way in the same run.
// Run: node --import tsx bench/policy-answer.ts   (CORRAL_BENCH_TRIALS, default 100)
//
// The program is named `claude`, so the manifest's [identity] names it by its process; it stamps the
// moment it draws the form and the moment it reads the answer, both on CLOCK_MONOTONIC.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonConnection } from '../src/cli/with-daemon.ts';
import { EVENTS_SUBSCRIBE } from '../src/protocol/methods/events.ts';
import { PANE_KILL, PANE_SEND, PANE_SPAWN } from '../src/protocol/methods/pane.ts';
import { EVENT } from '../src/protocol/notifications.ts';
import { startDaemon } from '../harness/daemon.ts';
import { summary } from '../harness/figures.ts';
import { sleep } from '../harness/wait.ts';
import { clockNow } from './lib/blocking-agent.ts';

const TRIALS = Number(process.env.CORRAL_BENCH_TRIALS ?? 100);
const now = clockNow('monotonic');

const PROGRAM = String.raw`
const fs = require('node:fs');
const stamp = (file) => fs.appendFileSync(file, (Number(process.hrtime.bigint()) / 1e6) + '\n');
const out = (s) => process.stdout.write(s);
const rule = '─'.repeat(78);
const idle = () => out('\x1b]0;✳ Bench Agent\x07\x1b[H\x1b[2JReady.\r\n\r\n' + [rule, '❯ ', rule, '  ? for shortcuts'].join('\r\n'));
const form = () => out('\x1b[H\x1b[2J' + [rule, ' Bash command', '', '   npm test', '',
  ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No, and tell Claude what to do differently (esc)', '',
  ' Esc to cancel · Tab to amend · ctrl+e to explain'].join('\r\n'));
const at = process.argv.indexOf('--settings');
const settings = at > 0 ? JSON.parse(process.argv[at + 1]) : {};
const hook = settings.hooks?.PermissionRequest?.[0]?.hooks?.[0]?.command;
const payload = JSON.stringify({ session_id: 'bench', hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'npm test' } });
// As Claude Code runs a hook: sh -c, the payload on stdin, its stdout read once it exits.
const runHook = (command, done) => {
  const started = Number(process.hrtime.bigint()) / 1e6;
  const child = require('node:child_process').spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'ignore'] });
  let printed = '';
  child.stdout.on('data', (chunk) => (printed += chunk));
  child.on('close', () => fs.appendFileSync(done, (Number(process.hrtime.bigint()) / 1e6 - started) + ' ' + (printed.includes('"allow"') ? 'allow' : 'none') + '\n'));
  child.stdin.end(payload);
};
process.stdin.setRawMode(true);
process.stdin.on('data', (key) => {
  const k = key.toString();
  if (k === 'h') runHook(hook, process.env.HOOK_TIMES);
  else if (k === 'n') runHook(process.execPath + ' -e 0', process.env.BARE_TIMES);
  else if (k === 'b') { stamp(process.env.FORM_STAMPS); form(); }
  else if (k === '1') { stamp(process.env.ANSWER_STAMPS); idle(); }
  else if (k === 'q') process.exit(0);
});
process.on('SIGHUP', () => process.exit(0));
idle();
`;

const last = (file: string) => Number(readFileSync(file, 'utf8').trim().split('\n').at(-1));
const count = (file: string) => {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

const dir = mkdtempSync(join(tmpdir(), 'corral-bench-policy-'));
try {
  mkdirSync(join(dir, 'bin'));
  const program = join(dir, 'bin', 'claude');
  writeFileSync(program, `#!${process.execPath}\n${PROGRAM}`);
  chmodSync(program, 0o755);
  mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
  writeFileSync(join(dir, 'config', 'corral', 'config.toml'), '[arbiter]\ndebounce_ms = 60\n');
  writeFileSync(join(dir, 'config', 'corral', 'policy.toml'), `loop_limit = 120\n[[rule]]\ntool = "Bash"\ncommand = 'npm test'\naction = "allow"\n`);
  const daemon = await startDaemon({ dir });
  const forms = join(dir, 'forms');
  const answers = join(dir, 'answers');
  const hookTimes = join(dir, 'hook-times');
  const bareTimes = join(dir, 'bare-times');
  const answered: number[] = [];
  const attention: number[] = [];
  try {
    const client = await DaemonConnection.connect(daemon.socket);
    let attentionAt = 0;
    let idleSeen = 0;
    client.onNotification(EVENT, (event) => {
      if (event.kind === 'agent.attention') attentionAt = now();
      if (event.kind === 'agent.stateChanged' && ['idle', 'done'].includes((event.data as { to: string }).to)) idleSeen += 1;
    });
    await client.call(EVENTS_SUBSCRIBE, { filter: 'pane:bench' });
    await client.call(PANE_SPAWN, { command: program, args: [], name: 'bench', cwd: dir, env: { FORM_STAMPS: forms, ANSWER_STAMPS: answers } });
    while (idleSeen === 0) await sleep(10);
    for (let i = 0; i < TRIALS; i += 1) {
      const idles = idleSeen;
      await client.call(PANE_SEND, { target: 'bench', text: 'b' });
      // The answer read, the agent idle again (a new prompt next time), and this trial's attention event in.
      while (count(answers) <= i || idleSeen === idles || attentionAt < last(forms)) await sleep(5);
      answered.push(last(answers) - last(forms));
      attention.push(attentionAt - last(forms));
    }
    await client.call(PANE_KILL, { target: 'bench' });
    // The hook path, in a pane of its own (the loop guard counts per pane): the hook and a bare Node
    // start-up, in turns, each waited for.
    await client.call(PANE_SPAWN, { command: program, args: [], name: 'bench-hook', cwd: dir, env: { HOOK_TIMES: hookTimes, BARE_TIMES: bareTimes } });
    for (let i = 0; i < TRIALS; i += 1) {
      await client.call(PANE_SEND, { target: 'bench-hook', text: 'h' });
      while (count(hookTimes) <= i) await sleep(5);
      await client.call(PANE_SEND, { target: 'bench-hook', text: 'n' });
      while (count(bareTimes) <= i) await sleep(5);
    }
    await client.call(PANE_KILL, { target: 'bench-hook' });
    client.dispose();
  } finally {
    await daemon.dispose();
  }
  const times = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((line) => line.split(' '));
  const hooked = times(hookTimes);
  if (hooked.some(([, said]) => said !== 'allow')) throw new Error(`a hook printed no allow: ${hooked.filter(([, said]) => said !== 'allow').length} of ${hooked.length}`);
  const result = {
    bench: 'policy-answer',
    trials: TRIALS,
    policyAnswer: summary(answered),
    attentionEvent: summary(attention),
    hookAnswer: summary(hooked.map(([ms]) => Number(ms))),
    bareNode: summary(times(bareTimes).map(([ms]) => Number(ms))),
  };
  console.log(JSON.stringify(result));
  console.log(
    `permission form on screen to the policy's answer read by the program over ${TRIALS} trials: median ${result.policyAnswer.medianMs} ms, p99 ${result.policyAnswer.p99Ms} ms; ` +
      `to agent.attention at a subscriber in the same trials: median ${result.attentionEvent.medianMs} ms, p99 ${result.attentionEvent.p99Ms} ms; ` +
      `the hook path, from its PermissionRequest hook started to the allow read: median ${result.hookAnswer.medianMs} ms, p99 ${result.hookAnswer.p99Ms} ms, ` +
      `beside a bare node -e 0: median ${result.bareNode.medianMs} ms, p99 ${result.bareNode.p99Ms} ms`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
