import type { Explain } from '../../detect/explain.ts';

/** Explain as text for people: the verdict, then every rule with ✓ for a match. */
export function formatExplain(result: Explain, loadErrors: string[] = []): string {
  const visible = Object.entries(result.visible).filter(([, on]) => on).map(([name]) => name).join(', ') || 'none';
  const decided = result.rule
    ? `rule ${result.rule.id} (priority ${result.rule.priority}, region ${result.rule.region})`
    : `fallback: ${result.fallbackReason}`;
  const lines = [
    `agent:     ${result.agent}`,
    `state:     ${result.state}${result.skipStateUpdate ? ' (skip_state_update: the previous state stays)' : ''}`,
    `decided:   ${decided}`,
    `visible:   ${visible}`,
    `manifest:  ${result.manifest.id} ${result.manifest.version} (${result.manifest.source})`,
    ...loadErrors.map((error) => `warning:   ${error}`),
    'rules:',
  ];
  for (const rule of result.evaluatedRules) {
    const mark = rule.matched ? '✓' : '·';
    lines.push(`  ${mark} ${rule.id}  ${rule.state}  ${rule.priority}  ${rule.region} (${rule.evidence.regionSize} lines)`);
    if (rule.matched) lines.push(`      ${rule.evidence.matcher}`);
  }
  return lines.join('\n');
}
