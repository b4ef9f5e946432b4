// One live picture of the agents (src/client/live-agents.ts): `corral top` and `corral web` feed
// from it and keep no list of agents, no event stream and no read-back of their own.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const SRC = resolve(import.meta.dirname, '../../src');
const VIEWS = ['cli/top', 'web'];

/** The view's own files (the browser's page/ is a client of the web wire, not of the daemon). */
function filesOf(folder: string): string[] {
  return readdirSync(join(SRC, folder), { withFileTypes: true }).flatMap((entry) => (entry.isFile() && entry.name.endsWith('.ts') ? [join(SRC, folder, entry.name)] : []));
}

/** What only the live model does: keep agents by id, subscribe to the daemon's events, read an agent back. */
const OWN_COPY = [
  { what: 'a list of agents', pattern: /Map<string,\s*AgentInfo>|AgentInfo\[\]\s*=\s*\[\]/ },
  { what: 'a subscription of its own', pattern: /EVENTS_SUBSCRIBE|'events\.subscribe'|\.subscribe\(\{/ },
  { what: 'an agent read back after an event', pattern: /call\('agent\.get'|call\(AGENT_GET/ },
  { what: 'a read feed', pattern: /SerialReads\(\(id\) => this\.read(Agent)?\(/ },
];

function copiesIn(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return OWN_COPY.filter(({ pattern }) => pattern.test(text)).map(({ what }) => `${relative(SRC, file)} keeps ${what}`);
  });
}

describe('the live agents of top and web', () => {
  for (const view of VIEWS) {
    it(`src/${view}/ feeds from client/live-agents.ts and keeps no list of its own`, () => {
      const files = filesOf(view);
      assert.ok(
        files.some((file) => /\bLiveAgents\b/.test(readFileSync(file, 'utf8')) && /from '(\.\.\/)+client\/index\.ts'/.test(readFileSync(file, 'utf8'))),
        `no file of src/${view}/ takes LiveAgents from the client`,
      );
      assert.deepEqual(copiesIn(files), []);
    });
  }

  it('finds a copy when there is one', () => {
    assert.ok(copiesIn([join(SRC, 'client/live-feed.ts')]).some((line) => line.includes('subscription')));
  });
});
