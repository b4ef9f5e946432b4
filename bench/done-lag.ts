// Done lag on recorded sessions: for each turn a recording ends, the time from the output that drew
// the finished turn to the done a pane would publish (its timed verdicts fed to an arbiter on the
// recording's clock, debounce included). Issue 39: Claude Code 2.1.332 took 1.35-1.53 s live.
// Run: node --import tsx bench/done-lag.ts [AGENT-FOLDER...]   (folders of test/fixtures/streams; default all)
import { readdirSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PaneArbiter, type ChangeRecord, type Clock } from '../src/arbiter/index.ts';
import { readCapture } from '../src/cli/offline/capture.ts';
import { timedVerdicts } from '../src/cli/offline/replay-timed.ts';
import { ManifestSet } from '../src/manifest-store/manifest-set.ts';

const STREAMS = fileURLToPath(new URL('../test/fixtures/streams/', import.meta.url));

class SetClock implements Clock {
  at = 0;
  now(): number {
    return this.at;
  }
}

/** The lag of each done the recording reaches, in ms. */
async function doneLags(file: string, agent: string, manifests: ManifestSet): Promise<number[]> {
  const capture = readCapture(file);
  const manifest = manifests.get(agent);
  if (!manifest || capture.timing === 'none') return [];
  const { verdicts } = await timedVerdicts(capture, manifest, { cols: capture.cols!, rows: capture.rows! });
  const clock = new SetClock();
  const arbiter = new PaneArbiter({ clock, tree: { lineage: () => null } });
  arbiter.observeProcess({ observable: true, leaderPid: 1, agent, agentPid: 1 });
  const lags: number[] = [];
  let lastOutputAt = 0;
  let lastOffset = -1;
  const record = (changes: ChangeRecord[]) => {
    for (const change of changes) if (change.after.displayed === 'done' && change.before.displayed !== 'done') lags.push(clock.at - lastOutputAt);
  };
  const runDeadlines = (until: number) => {
    for (let next = arbiter.nextDeadline(); next !== null && next <= until; next = arbiter.nextDeadline()) {
      clock.at = next;
      record(arbiter.tick());
    }
  };
  for (const { at, offset, verdict } of verdicts) {
    runDeadlines(at);
    clock.at = at;
    if (offset !== lastOffset) {
      lastOutputAt = at;
      lastOffset = offset;
    }
    record(arbiter.observeScreen(verdict));
  }
  runDeadlines(clock.at + 10_000);
  return lags;
}

function castsUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...castsUnder(path));
    else if (entry.name.endsWith('.cast')) found.push(path);
  }
  return found.sort();
}

/** The agent a recording's labels name, else its folder's. */
function agentOf(cast: string, folder: string): string {
  const labels = join(cast, '..', 'labels.json');
  if (existsSync(labels)) {
    const first = (JSON.parse(readFileSync(labels, 'utf8')) as { agent?: string }[])[0];
    if (first?.agent) return first.agent;
  }
  return folder;
}

const manifests = new ManifestSet({ userDir: null, catalogDir: null });
const folders = process.argv.slice(2).length > 0 ? process.argv.slice(2) : readdirSync(STREAMS).filter((name) => !name.includes('.'));
for (const folder of folders) {
  for (const cast of castsUnder(join(STREAMS, folder))) {
    const lags = await doneLags(cast, agentOf(cast, folder), manifests);
    if (lags.length === 0) continue;
    const name = cast.slice(STREAMS.length).replace(/\/session\.cast$/, '');
    console.log(`${name.padEnd(40)} done lag ms: ${lags.map((lag) => Math.round(lag)).join(' ')}`);
  }
}
