import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runConformance, type CaseResult } from '../../src/cli/offline/conformance-run.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Labels we disagree with on evidence (docs/detection.md, "Where we disagree"). */
const DISAGREEMENTS = new Set([
  'codex_bare_yes_no_hint_is_not_visible_blocker.screen.txt', // "[y/n]" inside prose is no prompt
  'codex_generic_confirmation_prompt_is_not_visible_blocker.screen.txt', // a quoted question is no prompt
  'claude_separators_without_prompt_do_not_set_screen_idle_signal.screen.txt', // no positive idle cue: unknown
]);
/** Agents whose fixtures this engine's own manifests must match exactly. */
const STRICT_AGENTS = new Set(['claude', 'codex']);

describe('fixture screens and streams under test/fixtures', async () => {
  const manifests = new ManifestSet({ userDir: null, catalogDir: null });
  const report = await runConformance(FIXTURES, (agent) => manifests.get(agent));
  const current = report.cases.filter((c) => !c.drift);
  const describeCase = (c: CaseResult) => `${c.agent} ${c.name}: ${c.mismatches.join('; ')} [${c.rule ?? 'fallback'}]`;

  it('has a manifest for every labelled agent', () => {
    assert.deepEqual(current.filter((c) => c.outcome === 'no_manifest').map(describeCase), []);
  });

  it('never says blocked where the label does not (non-drift cases)', () => {
    assert.deepEqual(current.filter((c) => c.outcome === 'false_blocked').map(describeCase), []);
  });

  it('never says idle where working or blocked was labelled (non-drift cases)', () => {
    assert.deepEqual(current.filter((c) => c.outcome === 'false_idle').map(describeCase), []);
  });

  it('gets every label of every recorded real-agent stream right', () => {
    const streams = report.cases.filter((c) => c.kind === 'stream');
    assert.ok(streams.length >= 50, `${streams.length} stream labels`);
    assert.deepEqual(streams.filter((c) => c.outcome !== 'right').map(describeCase), []);
  });

  it('matches every claude and codex label except the documented disagreements', () => {
    const misses = current.filter((c) => STRICT_AGENTS.has(c.agent) && c.outcome !== 'right' && !DISAGREEMENTS.has(c.name));
    assert.deepEqual(misses.map(describeCase), []);
  });
});
