import type { Command } from 'commander';
import { printJson, printText } from '../output.ts';
import { UsageError } from '../print-error.ts';
import { runConformance, type ConformanceReport, type Tally } from './conformance-run.ts';
import { offlineManifests } from './manifest-source.ts';

/** Thrown when the corpus check fails; exit code 1. */
export class CheckFailed extends Error {
  readonly code = 'check_failed';
}

export function registerConformanceCommand(detect: Command): void {
  detect
    .command('conformance <dir>')
    .description('evaluate every labelled case of DIR/screens and DIR/streams with the bundled manifests')
    .option('--min <ratio>', 'fail below this overall agreement on non-drift cases (conservative answers count as agreeing unless --strict)', '0.95')
    .option('--strict', 'count conservative answers (unknown where idle was labelled) as misses for --min')
    .option('--json', 'print JSON')
    .action(async function (this: Command, dir: string) {
      const flags = this.optsWithGlobals() as { min: string; strict?: boolean; json?: boolean };
      const min = Number(flags.min);
      if (!(min >= 0 && min <= 1)) throw new UsageError(`--min must be a ratio within 0..1, not "${flags.min}"`);
      const set = offlineManifests(true);
      const report = await runConformance(dir, (agent) => set.get(agent));
      if (flags.json) printJson(report);
      else printText(formatReport(report));
      const problems: string[] = [];
      // Conservative answers are reported apart from misses (docs/accuracy.md: "unknown where idle was labelled"): unknown is our fallback by design.
      const gated = flags.strict ? report.overall.agreement : report.overall.agreement_with_conservative;
      if (gated < min) problems.push(`overall agreement ${percent(gated)}${flags.strict ? '' : ' (conservative counted as agreeing)'} is below the minimum ${percent(min)}`);
      if (report.overall.false_blocked > 0) problems.push(`${report.overall.false_blocked} false blocked in non-drift cases`);
      // A recorded stream is a real session labelled by the recorder: idle there must never be wrong.
      const streamFalseIdle = report.cases.filter((c) => c.kind === 'stream' && !c.drift && c.outcome === 'false_idle').length;
      if (streamFalseIdle > 0) problems.push(`${streamFalseIdle} false idle in recorded streams`);
      if (problems.length) throw new CheckFailed(`conformance failed: ${problems.join('; ')}`);
    });
}

export function formatReport(report: ConformanceReport): string {
  const lines: string[] = [`conformance over ${report.dir}`, '', 'agent         right/total  agreement  +conservative  false_blocked  false_idle  conservative  miss  no_manifest'];
  const row = (name: string, t: Tally) =>
    `${name.padEnd(13)} ${`${t.right}/${t.total}`.padStart(11)}  ${percent(t.agreement).padStart(9)}  ${percent(t.agreement_with_conservative).padStart(13)}  ${String(t.false_blocked).padStart(13)}  ${String(t.false_idle).padStart(10)}  ${String(t.conservative).padStart(12)}  ${String(t.miss).padStart(4)}  ${String(t.no_manifest).padStart(11)}`;
  for (const [agent, t] of Object.entries(report.perAgent)) lines.push(row(agent, t));
  lines.push(row('overall', report.overall), row('drift (apart)', report.drift), '');
  if (Object.keys(report.perRecording).length) {
    lines.push('recorded streams by agent, version and size', '', 'agent     version   size     right/total  false_blocked  false_idle  conservative  miss');
    for (const [name, t] of Object.entries(report.perRecording)) {
      const [agent, version, size] = name.split(' ') as [string, string, string];
      lines.push(`${agent.padEnd(9)} ${version.padEnd(9)} ${size.padEnd(8)} ${`${t.right}/${t.total}`.padStart(11)}  ${String(t.false_blocked).padStart(13)}  ${String(t.false_idle).padStart(10)}  ${String(t.conservative).padStart(12)}  ${String(t.miss).padStart(4)}`);
    }
    lines.push('');
  }
  const misses = report.cases.filter((c) => c.outcome !== 'right');
  for (const drift of [false, true]) {
    const list = misses.filter((c) => c.drift === drift);
    if (!list.length) continue;
    lines.push(drift ? 'drift cases we disagree with (older agent versions; see docs/detection.md):' : 'misses:');
    for (const c of list) lines.push(`  ${c.outcome.padEnd(13)} ${c.agent.padEnd(9)} ${c.name}  [${c.rule ?? 'fallback'}] ${c.mismatches.join('; ')}`);
    lines.push('');
  }
  return lines.join('\n');
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}
