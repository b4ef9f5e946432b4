import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readCapture } from './capture.ts';
import { join } from 'node:path';
import type { CompiledManifest } from '../../detect/compiled.ts';
import { evaluate } from '../../detect/evaluate.ts';
import type { Verdict } from '../../detect/types.ts';
import { UsageError } from '../print-error.ts';
import { replayCapture } from './replay-stream.ts';
import { ScreenMemory } from '../../detect/screen-memory.ts';
import { parseProgress, readScreenLines } from './screen-file.ts';
import { score, type Expectation, type Outcome } from './score.ts';

interface ScreenCase {
  file: string;
  agent: string;
  osc_title?: string | null;
  osc_progress?: string | null;
  expect: Expectation;
  drift?: boolean;
}

/** One labelled moment of a raw stream: an entry of streams/cases.json or of a fixture folder's labels.json. */
export interface StreamCase {
  file: string;
  bytes: number;
  /** Seconds since the capture began at the moment of the label (asciicast captures); absent: judged without a clock. */
  time?: number;
  agent: string;
  /** The agent's version in the recording. */
  version?: string;
  cols: number;
  rows: number;
  label: string;
  expect: Expectation;
  drift?: boolean;
}

export interface CaseResult {
  kind: 'screen' | 'stream';
  name: string; // file, or file@bytes (label) for streams
  agent: string;
  drift: boolean;
  outcome: Outcome | 'no_manifest';
  rule: string | null;
  state: string;
  mismatches: string[];
  /** Streams: "<agent> <version> <cols>x<rows>", the row of the per-size table. */
  recording?: string;
}

export interface Tally {
  total: number;
  right: number;
  false_blocked: number;
  false_idle: number;
  conservative: number;
  miss: number;
  no_manifest: number;
  agreement: number; // right / total, 0..1
  agreement_with_conservative: number; // (right + conservative) / total: unknown where idle was labelled counted as acceptable
}

export interface ConformanceReport {
  dir: string;
  cases: CaseResult[];
  perAgent: Record<string, Tally>; // non-drift cases
  perRecording: Record<string, Tally>; // stream cases by agent, version and size
  overall: Tally; // non-drift cases
  drift: Tally; // drift cases, reported apart
}

/** Evaluates every case of DIR/screens/cases.json and DIR/streams/cases.json with the given manifests. */
export async function runConformance(dir: string, lookup: (agent: string) => CompiledManifest | null): Promise<ConformanceReport> {
  const screenCases = collectCases<ScreenCase>(join(dir, 'screens'));
  const streamCases = collectCases<StreamCase>(join(dir, 'streams'));
  if (screenCases.length + streamCases.length === 0) throw new UsageError(`no cases found under ${dir} (expected screens/cases.json or streams/cases.json)`);
  const cases: CaseResult[] = [];

  for (const item of screenCases) {
    const manifest = lookup(item.agent);
    const verdict = manifest
      ? evaluate(manifest, { lines: readScreenLines(item.path), title: item.osc_title ?? null, progress: parseProgress(item.osc_progress) })
      : null;
    cases.push(result('screen', item.file, item.agent, item.drift ?? false, verdict, item.expect));
  }

  const byFile = new Map<string, (StreamCase & { path: string })[]>();
  for (const item of streamCases) {
    const key = `${item.path}\0${item.cols}x${item.rows}`;
    byFile.set(key, [...(byFile.get(key) ?? []), item]);
  }
  for (const group of byFile.values()) {
    const first = group[0]!;
    const data = readCapture(first.path);
    const verdicts = new Map<StreamCase & { path: string }, Verdict | null>();
    // A timed capture is judged as the daemon would: every chunk at its time, each label at the time it was taken.
    const timed = data.timing !== 'none';
    const agents = [...new Set(group.map((item) => item.agent))];
    const memories = new Map(agents.map((agent) => [agent, new ScreenMemory()]));
    const points = group.map((item) => ({ bytes: item.bytes, at: timed && item.time !== undefined ? item.time * 1000 : null }));
    await replayCapture(data, points, { cols: first.cols, rows: first.rows }, {
      ...(timed
        ? {
            output: (input) => {
              for (const agent of agents) {
                const manifest = lookup(agent);
                if (manifest) evaluate(manifest, input, memories.get(agent));
              }
            },
          }
        : {}),
      point: (index, input) => {
        const item = group[index]!;
        const manifest = lookup(item.agent);
        verdicts.set(item, manifest ? evaluate(manifest, input, timed ? memories.get(item.agent) : undefined) : null);
      },
    });
    for (const item of group) {
      const row = result('stream', `${item.file}@${item.bytes} (${item.label})`, item.agent, item.drift ?? false, verdicts.get(item) ?? null, item.expect);
      cases.push({ ...row, recording: `${item.agent} ${item.version ?? '?'} ${item.cols}x${item.rows}` });
    }
  }

  const perAgent: Record<string, Tally> = {};
  for (const agent of [...new Set(cases.map((c) => c.agent))].sort()) perAgent[agent] = tally(cases.filter((c) => c.agent === agent && !c.drift));
  const perRecording: Record<string, Tally> = {};
  const recordings = [...new Set(cases.flatMap((c) => (c.recording ? [c.recording] : [])))].sort(byRecording);
  for (const name of recordings) perRecording[name] = tally(cases.filter((c) => c.recording === name));
  return { dir, cases, perAgent, perRecording, overall: tally(cases.filter((c) => !c.drift)), drift: tally(cases.filter((c) => c.drift)) };
}

/**
 * Cases of one kind: `cases.json` in the folder (corpus layout, files relative to the folder) and
 * `<subfolder>/labels.json` (fixture layout, files relative to the subfolder or the folder).
 */
export function collectCases<T extends { file: string }>(folder: string): (T & { path: string })[] {
  const found: (T & { path: string })[] = [];
  const add = (labels: string, base: string) => {
    for (const item of readCases<T>(labels)) {
      const local = join(base, item.file);
      found.push({ ...item, path: existsSync(local) ? local : join(folder, item.file) });
    }
  };
  if (existsSync(join(folder, 'cases.json'))) add(join(folder, 'cases.json'), folder);
  // Fixture folders nest: <agent>/<version>/<cols>x<rows>/labels.json.
  const walk = (dir: string) => {
    let subfolders: string[] = [];
    try {
      subfolders = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    } catch {
      return;
    }
    for (const name of subfolders) {
      const labels = join(dir, name, 'labels.json');
      if (existsSync(labels)) add(labels, join(dir, name));
      walk(join(dir, name));
    }
  };
  walk(folder);
  return found;
}

function readCases<T>(file: string): T[] {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T[];
  } catch (error) {
    throw new UsageError(`cannot read cases file ${file}: ${(error as Error).message}`);
  }
}

function result(kind: 'screen' | 'stream', name: string, agent: string, drift: boolean, verdict: Verdict | null, expect: Expectation): CaseResult {
  if (!verdict) return { kind, name, agent, drift, outcome: 'no_manifest', rule: null, state: 'none', mismatches: [`no manifest for agent ${agent}`] };
  const { outcome, mismatches } = score(verdict, expect);
  return { kind, name, agent, drift, outcome, rule: verdict.rule?.id ?? null, state: verdict.state, mismatches };
}

/** Agent, then version, then width: the per-size table reads down one agent's sizes. */
function byRecording(a: string, b: string): number {
  const [agentA, versionA, sizeA] = a.split(' ') as [string, string, string];
  const [agentB, versionB, sizeB] = b.split(' ') as [string, string, string];
  if (agentA !== agentB) return agentA < agentB ? -1 : 1;
  if (versionA !== versionB) return versionA.localeCompare(versionB, 'en', { numeric: true });
  return parseInt(sizeA, 10) - parseInt(sizeB, 10);
}

function tally(cases: CaseResult[]): Tally {
  const count = (outcome: CaseResult['outcome']) => cases.filter((c) => c.outcome === outcome).length;
  const right = count('right');
  return {
    total: cases.length,
    right,
    false_blocked: count('false_blocked'),
    false_idle: count('false_idle'),
    conservative: count('conservative'),
    miss: count('miss'),
    no_manifest: count('no_manifest'),
    agreement: cases.length === 0 ? 1 : right / cases.length,
    agreement_with_conservative: cases.length === 0 ? 1 : (right + count('conservative')) / cases.length,
  };
}
