import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { lintManifests } from '../../src/cli/offline/lint-run.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'corral-offline-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function corral(...args: string[]) {
  // A private config home keeps the user's own overrides out of the test.
  return spawnSync(process.execPath, [join(ROOT, 'bin/corral'), ...args], { encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: dir, XDG_DATA_HOME: dir } });
}

describe('offline commands', () => {
  it('explains a saved screen as JSON, with the title the program set', () => {
    const screen = join(dir, 'screen.txt');
    writeFileSync(screen, 'Task complete.\n');
    const result = corral('agent', 'explain', '--file', screen, '--agent', 'claude', '--title', '✳ Claude Code', '--json');
    assert.equal(result.status, 0, result.stderr);
    const explain = JSON.parse(result.stdout);
    assert.equal(explain.state, 'idle');
    assert.equal(explain.rule.id, 'title_idle_glyph');
    assert.equal(explain.manifest.source, 'bundled');
  });

  it('replays a capture to its verdict at a byte offset', () => {
    const result = corral('detect', 'replay', join(ROOT, 'test/fixtures/streams/codex/session.cast'), '--agent', 'codex', '--bytes', '24895', '--json');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).rule.id, 'action_required_title');
  });

  it('replays an asciicast at its recorded times: the timeline has times, --at judges a later moment, raw bytes have no time', () => {
    const cast = join(ROOT, 'test/fixtures/streams/claude-code/session.cast');
    const timeline = corral('detect', 'replay', cast, '--agent', 'claude', '--timeline', '--json');
    assert.equal(timeline.status, 0, timeline.stderr);
    const entries = JSON.parse(timeline.stdout) as { offset: number; time: number; state: string }[];
    assert.deepEqual(entries.map((e) => typeof e.time), entries.map(() => 'number'));
    assert.equal(entries.at(-1)!.state, 'idle');
    const late = corral('detect', 'replay', cast, '--agent', 'claude', '--bytes', '13117', '--at', '8.25', '--json');
    assert.equal(late.status, 0, late.stderr);
    assert.deepEqual([JSON.parse(late.stdout).state, JSON.parse(late.stdout).time], ['blocked', 8.25]);
    const raw = join(dir, 'plain.raw');
    writeFileSync(raw, 'plain bytes\r\n');
    const refused = corral('detect', 'replay', raw, '--agent', 'claude', '--at', '1');
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /--at needs a capture with timing/);
  });

  it('exits 1 when lint finds an error and 2 on a usage error', () => {
    const broken = join(dir, 'broken.toml');
    writeFileSync(broken, 'id = "broken"\nversion = "1"\n[[rules]]\nid = "r"\nstate = "idle"\nregex = ["("]\n');
    const lint = corral('manifest', 'lint', broken);
    assert.equal(lint.status, 1);
    assert.match(lint.stdout, /manifest_bad_regex/);
    assert.equal(corral('detect', 'conformance', dir, '--min', '2').status, 2);
  });

  it('lint lists every error of a file, each once, with its line, and the path once on each line', () => {
    const broken = join(dir, 'many.toml');
    writeFileSync(
      broken,
      [
        'id = "Many"', 'version = "1.0.0"', 'colour = "red"',
        '[[rules]]', 'id = "one"', 'state = "sleepy"', 'contains = ["x"]',
        '[[rules]]', 'id = "two"', 'state = "idle"', 'regex = ["(unclosed"]',
        '[[rules]]', 'id = "three"', 'state = "idle"', 'regex = ["[also"]',
      ].join('\n') + '\n',
    );
    const lint = corral('manifest', 'lint', broken);
    assert.equal(lint.status, 1);
    const errors = lint.stdout.split('\n').filter((line) => line.startsWith('error: '));
    assert.deepEqual(
      errors.map((line) => line.replace(broken, 'FILE').replace(/^error: (FILE:\d+:\d+): .*\((\w+)\)$/, 'error $1 $2')),
      ['error FILE:1:1 manifest_invalid_value', 'error FILE:3:1 manifest_unknown_key', 'error FILE:6:1 manifest_invalid_value', 'error FILE:11:1 manifest_bad_regex', 'error FILE:15:1 manifest_bad_regex'],
    );
    assert.ok(errors.every((line) => line.split(broken).length === 2), 'the path once on each line');
    assert.match(lint.stdout, /\n1 manifests, 5 errors, 0 warnings\n$/);
    const json = JSON.parse(corral('manifest', 'lint', broken, '--json').stdout);
    assert.deepEqual(json.findings.map((f: { line?: number }) => f.line), [1, 3, 6, 11, 15]);
    assert.ok(json.findings.every((f: { message: string }) => !f.message.includes(broken)));
  });

  it('writes the accuracy page of each folder present, and fails on a false blocked', () => {
    const cases = join(dir, 'accuracy');
    const screens = join(cases, 'screens');
    mkdirSync(screens, { recursive: true });
    writeFileSync(join(screens, 'idle.screen.txt'), 'Task complete.\n');
    const labels = [{ file: 'idle.screen.txt', agent: 'claude', osc_title: '✳ Claude Code', expect: { state: 'idle' } }];
    writeFileSync(join(screens, 'cases.json'), JSON.stringify(labels));
    const page = join(dir, 'accuracy.md');
    const written = corral('detect', 'accuracy', '--out', page, cases, join(dir, 'absent'));
    assert.equal(written.status, 0, written.stderr);
    const text = readFileSync(page, 'utf8');
    assert.match(text, /\| `[^`]*accuracy` \| 1 \| 1 \| 0 \| 0 \| 0 \| 0 \|/);
    assert.match(text, /Not present here, so not counted: `[^`]*absent`/);
    writeFileSync(join(screens, 'form.screen.txt'), `${'─'.repeat(20)}\n Do you want to proceed?\n ❯ 1. Yes\n   2. No\n Esc to cancel · Tab to amend\n`);
    writeFileSync(join(screens, 'cases.json'), JSON.stringify([...labels, { file: 'form.screen.txt', agent: 'claude', expect: { state: 'idle' } }]));
    const failed = corral('detect', 'accuracy', '--out', page, cases);
    assert.equal(failed.status, 1);
    assert.match(failed.stderr, /accuracy check failed: .*false_blocked form\.screen\.txt/);
  });
});

describe('manifest lint', () => {
  it('warns of a blocked fixture no prompt reader reads, and of a reader no blocked fixture shows', () => {
    const file = join(dir, 'asks.toml');
    writeFileSync(
      file,
      [
        'id = "asks"', 'version = "1"',
        '[[rules]]', 'id = "form"', 'state = "blocked"', "line_regex = ['^Proceed\\?$']",
        '[[prompts]]', 'id = "proceed"', 'kind = "permission"', "start = '^Run it now\\?$'", "choice = '^(?P<number>\\d)\\. (?P<label>.+)$'",
      ].join('\n') + '\n',
    );
    const findings = lintManifests([file], [{ agent: 'asks', name: 'form.screen.txt', input: { lines: ['Proceed?', '1. Yes'], title: null, progress: null } }]);
    assert.deepEqual(findings.map((f) => [f.level, f.code, f.rule]), [
      ['warning', 'prompt_unread', null],
      ['warning', 'prompt_reader_unused', 'proceed'],
    ]);
  });

  it('flags a blocked rule that reads the whole screen with no anchor', () => {
    const file = join(dir, 'loose.toml');
    writeFileSync(file, 'id = "loose"\nversion = "1"\n[[rules]]\nid = "would_you_like"\nstate = "blocked"\ncontains = ["would you like to"]\n');
    const findings = lintManifests([file], [{ agent: 'loose', name: 'a', input: { lines: ['Would you like to run it?', '(y/n)'], title: null, progress: null } }]);
    assert.deepEqual(findings.map((f) => [f.level, f.code]), [['error', 'blocked_rule_reads_prose']]);
  });

  it('counts a required gate on a narrow region as an anchor, and any-gates only when every one is anchored', () => {
    const file = join(dir, 'gated.toml');
    const rule = (id: string, gates: string) => `[[rules]]\nid = "${id}"\nstate = "blocked"\nregion = "bottom_non_empty_lines(14)"\n${gates}\n`;
    writeFileSync(file, 'id = "gated"\nversion = "1"\n' +
      rule('bottom_gate', `any = [{ contains = ["Enter: Select"] }]\nall = [{ region = "bottom_non_empty_lines(1)", contains = ["Waiting for user confirmation"] }]`) +
      rule('anchored_any', `any = [{ line_regex = ['^\\s*\\d\\. '] }, { regex = ['Esc: Cancel$'] }]`) +
      rule('loose_any', `any = [{ line_regex = ['^\\s*\\d\\. '] }, { contains = ["would you like to"] }]`));
    const findings = lintManifests([file], []).filter((f) => f.code === 'blocked_rule_reads_prose');
    assert.deepEqual(findings.map((f) => f.rule), ['loose_any']);
  });

  it('passes every bundled manifest without an error', () => {
    const folder = fileURLToPath(new URL('../../manifests/', import.meta.url));
    const files = readdirSync(folder).filter((name) => name.endsWith('.toml')).map((name) => join(folder, name));
    assert.deepEqual(lintManifests(files, []).filter((f) => f.level === 'error'), []);
  });

  it('flags equal-priority rules that both match a fixture, and rules nothing matches', () => {
    const file = join(dir, 'overlap.toml');
    writeFileSync(file, 'id = "overlap"\nversion = "1"\n[[rules]]\nid = "a"\nstate = "idle"\ncontains = ["x"]\n[[rules]]\nid = "b"\nstate = "working"\ncontains = ["x"]\n[[rules]]\nid = "never"\nstate = "idle"\ncontains = ["zzz"]\n');
    const findings = lintManifests([file], [{ agent: 'overlap', name: 'x.txt', input: { lines: ['x'], title: null, progress: null } }]);
    assert.deepEqual(findings.map((f) => [f.level, f.code, f.rule]), [['error', 'equal_priority_overlap', 'a'], ['warning', 'rule_never_matches', 'never']]);
  });
});
