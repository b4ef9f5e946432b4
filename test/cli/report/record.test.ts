// The record a hook names for usage (docs/usage.md): from the payload's transcript_path, or Codex's
// rollout file found by its thread id under CODEX_HOME, or the record Corral's OpenCode plugin keeps.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { recordOf } from '../../../src/cli/report/record.ts';

const HOOKS = fileURLToPath(new URL('../../fixtures/hooks/', import.meta.url));
const payload = (file: string) => JSON.parse(readFileSync(join(HOOKS, file), 'utf8')) as Record<string, unknown>;

describe('the record a hook names', () => {
  const home = mkdtempSync(join(tmpdir(), 'corral-codex-home-'));
  after(() => rmSync(home, { recursive: true, force: true }));

  it("takes Claude Code's, Qwen Code's and Gemini CLI's transcript_path from their recorded payloads", () => {
    for (const [hook, file] of [['claude', 'claude/Stop-1.json'], ['qwen', 'qwen/Stop-1.json'], ['gemini', 'gemini/AfterAgent-1.json']] as const) {
      const record = recordOf(hook, payload(file), {});
      assert.equal(record?.format, hook);
      assert.equal(record?.path, payload(file)['transcript_path']);
    }
    assert.equal(recordOf('claude', { transcript_path: 'relative/path.jsonl' }, {}), undefined, 'only an absolute path');
  });

  it("names the record Corral's OpenCode plugin keeps for the event's session, in the launch's config folder", () => {
    const idle = payload('opencode/session.idle-1.json');
    assert.deepEqual(recordOf('opencode', idle, { OPENCODE_CONFIG_DIR: '/run/corral/p1' }), { format: 'opencode', path: '/run/corral/p1/usage/ses_dd0c919f2ffeOFh7SJ11AJ7jP3.jsonl' });
    assert.equal(recordOf('opencode', idle, {}), undefined, 'no plugin folder, no record');
    assert.equal(recordOf('opencode', { type: 'session.idle', properties: { sessionID: '../../etc/passwd' } }, { OPENCODE_CONFIG_DIR: '/run/corral/p1' }), undefined, 'a session id is a name, never a path');
  });

  it("finds Codex's rollout file by the notify payload's thread id, today's folder or yesterday's", () => {
    const notify = payload('codex/agent-turn-complete-1.json');
    const thread = notify['thread-id'] as string;
    const now = new Date(2026, 11, 6, 0, 30);
    assert.equal(recordOf('codex', notify, { CODEX_HOME: home }, now), undefined, 'none written yet');
    const folder = join(home, 'sessions', '2026', '12', '05');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `rollout-2026-12-05T23-59-00-${thread}.jsonl`), '');
    writeFileSync(join(folder, 'rollout-2026-12-05T23-00-00-another-thread.jsonl'), '');
    assert.deepEqual(recordOf('codex', notify, { CODEX_HOME: home }, now), { format: 'codex', path: join(folder, `rollout-2026-12-05T23-59-00-${thread}.jsonl`) });
    assert.equal(recordOf('codex', { ...notify, 'thread-id': '../../etc' }, { CODEX_HOME: home }, now), undefined, 'a thread id is a name, never a path');
  });
});
