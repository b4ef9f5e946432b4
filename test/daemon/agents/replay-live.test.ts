import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PaneArbiter, type ChangeRecord, type Clock } from '../../../src/arbiter/index.ts';
import { readCapture } from '../../../src/cli/offline/capture.ts';
import type { StreamCase } from '../../../src/cli/offline/conformance-run.ts';
import { formatAsciicast, outputBytes, parseAsciicast, type CastEvent } from '../../../src/terminal/asciicast.ts';
import { replayAtOffsets } from '../../../src/cli/offline/replay-stream.ts';
import { evaluate } from '../../../src/detect/evaluate.ts';
import { timedVerdicts } from '../../../src/cli/offline/replay-timed.ts';
import { ManifestSet } from '../../../src/manifest-store/manifest-set.ts';
import { EVENTS_READ } from '../../../src/protocol/methods/events.ts';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

const STREAM = fileURLToPath(new URL('../../fixtures/streams/claude-code/', import.meta.url));
const PLAYER = fileURLToPath(new URL('../../fixtures/terminal/play-cast.mjs', import.meta.url));
const HOLD_MS = 3000;
const CHUNK_GAP_S = 0.01;
const LABEL_HOLD_S = 1.2;

/**
 * The recorded Claude Code session with output 10 ms apart, and each labelled moment and each new
 * state on screen held 1.2 s. A state shorter than the arbiter's debounce window, or one that two
 * PTY reads merge away, would be published or not depending on how busy the machine is: a fact
 * about the machine, not about detection.
 */
async function heldCapture(dir: string, agent: string): Promise<string> {
  const cast = parseAsciicast(readFileSync(join(STREAM, 'session.cast'), 'utf8'));
  const labels = new Set((JSON.parse(readFileSync(join(STREAM, 'labels.json'), 'utf8')) as StreamCase[]).map((label) => label.bytes));
  const outputs = cast.events.filter(([, code]) => code === 'o');
  const ends: number[] = [];
  for (const [, , data] of outputs) ends.push((ends.at(-1) ?? 0) + Buffer.byteLength(data, 'utf8'));
  const manifest = new ManifestSet({ userDir: null, catalogDir: null }).get(agent)!;
  const states = new Map<number, string>();
  await replayAtOffsets(outputBytes(cast), ends, { cols: cast.header.width, rows: cast.header.height }, (offset, input) => states.set(offset, evaluate(manifest, input).state));
  const events: CastEvent[] = [];
  let t = 0;
  outputs.forEach(([, , data], i) => {
    events.push([Math.round(t * 1e6) / 1e6, 'o', data]);
    const state = states.get(ends[i]!);
    t += labels.has(ends[i]!) || state !== states.get(ends[i - 1] ?? -1) ? LABEL_HOLD_S : CHUNK_GAP_S;
  });
  const file = join(dir, 'held.cast');
  writeFileSync(file, formatAsciicast({ header: cast.header, events }));
  return file;
}

class SetClock implements Clock {
  at = 0;
  now(): number {
    return this.at;
  }
}

/** The states a pane would publish for the capture: its timed verdicts fed to an arbiter on the capture's clock. */
async function replayedStates(file: string, agent: string): Promise<string[]> {
  const capture = readCapture(file);
  const manifest = new ManifestSet({ userDir: null, catalogDir: null }).get(agent)!;
  const { verdicts } = await timedVerdicts(capture, manifest, { cols: capture.cols!, rows: capture.rows! });
  const clock = new SetClock();
  const arbiter = new PaneArbiter({ clock, tree: { lineage: () => null } });
  const changes: ChangeRecord[] = [...arbiter.observeProcess({ observable: true, leaderPid: 1, agent, agentPid: 1 })];
  const runDeadlines = (until: number) => {
    for (let next = arbiter.nextDeadline(); next !== null && next <= until; next = arbiter.nextDeadline()) {
      clock.at = next;
      changes.push(...arbiter.tick());
    }
  };
  for (const { at, verdict } of verdicts) {
    runDeadlines(at);
    clock.at = at;
    changes.push(...arbiter.observeScreen(verdict));
  }
  runDeadlines(clock.at + HOLD_MS);
  return collapse(changes.filter((c) => c.kind === 'changed').map((c) => c.after.displayed));
}

function collapse(states: string[]): string[] {
  return states.filter((state, i) => state !== 'unknown' && state !== states[i - 1]).filter((state, i, kept) => state !== kept[i - 1]);
}

describe('one recording, replayed and live', () => {
  const session = useDaemon();

  it('publishes the same states through a real pane and daemon as replay gives on the same bytes and times', async () => {
    const file = await heldCapture(session.daemon.dir, 'claude');
    const capture = readCapture(file);
    const pane = await session.call('pane.spawn', {
      command: process.execPath,
      args: [PLAYER, file, String(HOLD_MS)],
      cwd: session.daemon.dir,
      cols: capture.cols,
      rows: capture.rows,
      env: { CORRAL_AGENT: 'claude' },
    });
    let events: any[] = [];
    await waitFor(
      async () => {
        events = (await session.call(EVENTS_READ.name, { since: 0, limit: 10_000 })).events;
        return events.some((e) => e.kind === 'pane.exited' && e.pane?.id === pane.id);
      },
      { what: 'the recording to play to its end', timeoutMs: 60_000 },
    );
    const live = collapse(events.filter((e) => e.kind === 'agent.stateChanged' && e.pane?.id === pane.id).map((e) => e.data.to as string));
    const replayed = await replayedStates(file, 'claude');
    const trace = events.filter((e) => e.pane?.id === pane.id && e.kind.startsWith("agent.")).map((e) => `${e.ts} ${e.kind} ${e.data.to ?? e.data.state ?? ""} ${e.data.rule ?? ""} ${e.data.source ?? ""}`);
    assert.deepEqual(live, replayed, JSON.stringify({ live, replayed, trace }, null, 1));
    assert.deepEqual(replayed, ['blocked', 'done', 'working', 'blocked', 'working', 'done', 'working', 'blocked', 'working', 'done']);
  });
});
