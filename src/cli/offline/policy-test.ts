import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { CompiledManifest } from '../../detect/compiled.ts';
import { evaluate } from '../../detect/evaluate.ts';
import { readPrompt, type ReadPrompt } from '../../detect/prompt-read.ts';
import type { DetectInput } from '../../detect/types.ts';
import type { ManifestSet } from '../../manifest-store/manifest-set.ts';
import { decide, type Decision } from '../../policy/decide.ts';
import type { Policy } from '../../policy/policy-spec.ts';
import { UsageError } from '../print-error.ts';
import { readCapture } from './capture.ts';
import { requireManifest } from './manifest-source.ts';
import { replayCapture } from './replay-stream.ts';
import { readScreenLines } from './screen-file.ts';

/** One dialog of a recording or a saved screen, and what the policy decides on it. */
export interface PolicyTestEntry {
  file: string;
  agent: string;
  /** Output bytes fed when the dialog was whole (null for a saved screen). */
  bytes: number | null;
  /** Seconds since the recording began, for an asciicast. */
  time: number | null;
  prompt: ReadPrompt;
  decision: Decision;
}

const CAPTURE = /\.(?:cast|raw)$/;

/** The recordings below `path` (itself when a file), in name order. */
function filesOf(path: string): string[] {
  if (!existsSync(path)) throw new UsageError(`no such file or folder: ${path}`);
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((entry) => {
      const full = join(path, entry);
      return statSync(full).isDirectory() ? filesOf(full) : CAPTURE.test(entry) ? [full] : [];
    });
}

/** The agent a recording is of: `--agent`, else the `agent` of the labels beside it (labels.json, or cases.json a folder up). */
function agentOf(file: string, given: string | undefined): string {
  if (given !== undefined) return given;
  for (const [labels, prefix] of [[join(dirname(file), 'labels.json'), null], [join(dirname(dirname(file)), 'cases.json'), relative(dirname(dirname(file)), file)]] as const) {
    if (!existsSync(labels)) continue;
    try {
      const entries = JSON.parse(readFileSync(labels, 'utf8')) as { file?: string; agent?: string }[];
      const found = entries.find((entry) => typeof entry.agent === 'string' && (prefix === null || entry.file === prefix));
      if (found?.agent) return found.agent;
    } catch {
      // not labels: ask for --agent
    }
  }
  throw new UsageError(`cannot tell which agent ${file} records (no labels.json beside it); name it with --agent`);
}

/** Whether the screen shows the same dialog as `prompt` did: its kind, text and choices (its cursor may move). */
function dialogKey(prompt: ReadPrompt): string {
  return JSON.stringify([prompt.kind, prompt.text, prompt.choices.map((choice) => choice.id)]);
}

/**
 * Runs `policy` over recordings (asciicast or raw output, as `detect replay` reads them; a folder is
 * searched for them) and saved screens (as `agent explain --file` reads them): each dialog a
 * manifest reader reads whole on a blocked screen is decided once, as the daemon would decide it
 * for an agent its process identifies. Nothing is typed anywhere.
 */
export async function runPolicyTest(policy: Policy, paths: readonly string[], options: { agent?: string; cols?: number; rows?: number; manifests: ManifestSet }): Promise<PolicyTestEntry[]> {
  const entries: PolicyTestEntry[] = [];
  for (const file of paths.flatMap(filesOf)) {
    const agent = agentOf(file, options.agent);
    const manifest = requireManifest(options.manifests, agent);
    const judge = (input: DetectInput, bytes: number | null, time: number | null, last: { key: string | null }) => {
      if (evaluate(manifest, input).state !== 'blocked') {
        last.key = null;
        return;
      }
      const prompt = readPrompt(manifest, input);
      if (!prompt.complete) return;
      const key = dialogKey(prompt);
      if (key === last.key) return;
      last.key = key;
      entries.push({ file, agent: manifest.spec.id, bytes, time, prompt, decision: decideOffline(policy, manifest, prompt, entries.length) });
    };
    if (CAPTURE.test(file)) {
      const capture = readCapture(file);
      const last = { key: null as string | null };
      await replayCapture(capture, [], { cols: options.cols ?? capture.cols ?? 120, rows: options.rows ?? capture.rows ?? 32 }, {
        point: () => undefined,
        output: (input, fed) => judge(input, fed, typeof input.at === 'number' && capture.timing !== 'none' ? input.at / 1000 : null, last),
      });
    } else {
      judge({ lines: readScreenLines(file), title: null, progress: null, at: null } as DetectInput, null, null, { key: null });
    }
  }
  return entries;
}

function decideOffline(policy: Policy, manifest: CompiledManifest, read: ReadPrompt, index: number): Decision {
  return decide(policy, {
    agent: manifest.spec.id,
    identity: 'process',
    host: 'offline',
    workspace: 'offline',
    pane: { id: 'offline:1', name: null },
    cwd: null,
    prompt: { id: `offline-${index + 1}`, ...read },
  });
}

/** One line per entry: where, what the dialog asks, and the decision with its rule. */
export function formatPolicyTest(entries: readonly PolicyTestEntry[]): string {
  return entries
    .map((entry) => {
      const where = `${entry.file}${entry.time !== null ? ` @${entry.time.toFixed(1)}s` : entry.bytes !== null ? ` @${entry.bytes}B` : ''}`;
      const { decision } = entry;
      const asked = decision.subject.command ?? decision.subject.path ?? entry.prompt.text.split('\n')[0] ?? '';
      const rule = decision.rule ? `rule ${decision.rule.number} (${decision.rule.file}:${decision.rule.line})` : 'no rule';
      return `${where}  ${entry.agent} ${entry.prompt.kind}${decision.subject.tool ? ` ${decision.subject.tool}` : ''} ${JSON.stringify(asked)}  ${decision.action}${decision.choice ? ` ${decision.choice}` : ''} by ${rule}`;
    })
    .join('\n');
}
