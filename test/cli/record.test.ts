import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAsciicast } from '../../src/terminal/asciicast.ts';
import { runCli } from '../helpers/cli.ts';
import { CORRAL_BIN } from '../../harness/daemon.ts';
import { useDaemon } from '../helpers/session.ts';
import { waitFor } from '../../harness/wait.ts';

/** Starts `corral pane record` as a user would, and resolves its exit with what it printed. */
function startRecording(socket: string, args: string[]) {
  const child = spawn(process.execPath, [CORRAL_BIN, '--socket', socket, 'pane', 'record', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return { child, exited };
}

/** The recording has its header and its first chunk (the redraw): the daemon streams to it. */
const started = (file: string) => existsSync(file) && readFileSync(file, 'utf8').split('\n').length >= 3;

describe('corral pane record writes an asciicast v2 file', () => {
  const session = useDaemon();
  const corral = (...args: string[]) => runCli(['--socket', session.daemon.socket, ...args]);

  it('records output and, with --input, what is typed, until C-c; detect replay reads the file', async () => {
    await session.call('pane.spawn', { command: 'bash', args: ['--norc', '--noprofile'], cwd: session.daemon.dir, name: 'rec', env: { PS1: '$ ' }, cols: 90, rows: 20 });
    await session.screenContains('rec', '$');
    const file = join(session.daemon.dir, 'rec.cast');
    const recording = startRecording(session.daemon.socket, ['rec', '--out', file, '--input']);
    await waitFor(() => started(file), { what: 'the recording to start', timeoutMs: 60_000 });
    await session.call('pane.send', { target: 'rec', text: 'echo rec-$((6*7))', keys: ['Enter'] });
    await waitFor(() => readFileSync(file, 'utf8').includes('rec-42\\r\\n'), { what: 'the output in the file', timeoutMs: 15_000 });
    recording.child.kill('SIGINT');
    const result = await recording.exited;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /recorded [\d.]+ s of rec to .*rec\.cast/);

    const cast = parseAsciicast(readFileSync(file, 'utf8'));
    assert.deepEqual([cast.header.version, cast.header.width, cast.header.height, cast.header.corral?.timing], [2, 90, 20, 'recorded']);
    assert.equal(cast.events[0]![1], 'o', 'the first event is the redraw of the screen');
    assert.ok(cast.events.some(([, code, data]) => code === 'i' && data.includes('echo rec-')), 'the typed text is recorded');
    assert.ok(cast.events.some(([, code, data]) => code === 'o' && data.includes('rec-42')), 'the output is recorded');
    const replayed = await corral('detect', 'replay', file, '--agent', 'claude', '--json');
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.equal(typeof JSON.parse(replayed.stdout).state, 'string');
  });

  it('records no input unless asked, stops by itself after --for, and ends when the pane exits', async () => {
    const quiet = join(session.daemon.dir, 'quiet.cast');
    const timed = await corral('pane', 'record', 'rec', '--out', quiet, '--for', '300ms', '--json');
    assert.equal(timed.code, 0, timed.stderr);
    assert.equal(JSON.parse(timed.stdout).ended, 'stopped');
    assert.ok(parseAsciicast(readFileSync(quiet, 'utf8')).events.every(([, code]) => code === 'o'));

    await session.call('pane.spawn', { command: 'sh', args: ['-c', 'read line; echo "bye-$line"'], cwd: session.daemon.dir, name: 'brief' });
    const file = join(session.daemon.dir, 'brief.cast');
    const recording = startRecording(session.daemon.socket, ['brief', '--out', file]);
    await waitFor(() => started(file), { what: 'the recording to start', timeoutMs: 60_000 });
    await session.call('pane.send', { target: 'brief', text: 'now', keys: ['Enter'] });
    const result = await recording.exited;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /\(the pane exited\)/);
    assert.match(readFileSync(file, 'utf8'), /bye-now/);
  });

  it('refuses a pane that does not exist with exit 3', async () => {
    const missing = await corral('pane', 'record', 'nobody', '--out', join(session.daemon.dir, 'none.cast'));
    assert.equal(missing.code, 3, missing.stderr);
    assert.equal(existsSync(join(session.daemon.dir, 'none.cast')), false);
  });
});
