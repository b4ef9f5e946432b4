// One live picture of the agents (src/client/live-agents.ts): `corral top`, `corral web` and MCP's
// attention tool feed from it and keep no list of agents, no event stream, no inbox read and no
// read-back of their own.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const SRC = resolve(import.meta.dirname, '../../src');
/** Each view and its files: MCP's tools and the attention tools' picture (its wait tool reads a blocked agent's prompt once its one wait ends: no live list). */
const VIEWS: Record<string, (files: string[]) => string[]> = {
  'cli/top': (files) => files,
  web: (files) => files,
  mcp: (files) => files.filter((file) => /\/(tools|live-attention)\.ts$/.test(file)),
};

/** The view's own files (the browser's page/ is a client of the web wire, not of the daemon). */
function filesOf(folder: string): string[] {
  return readdirSync(join(SRC, folder), { withFileTypes: true }).flatMap((entry) => (entry.isFile() && entry.name.endsWith('.ts') ? [join(SRC, folder, entry.name)] : []));
}

/** What only the live model does: keep agents by id, subscribe to the daemon's events, read an agent back. */
const OWN_COPY = [
  { what: 'a list of agents', pattern: /Map<string,\s*AgentInfo>|AgentInfo\[\]\s*=\s*\[\]/ },
  { what: 'a subscription of its own', pattern: /EVENTS_SUBSCRIBE|'events\.subscribe'|\.subscribe\(\{/ },
  { what: 'an agent read back after an event', pattern: /call\('agent\.get'|call\(AGENT_GET/ },
  { what: 'an inbox read of its own', pattern: /call\('inbox\.list'|call\(INBOX_LIST/ },
  { what: 'a read feed', pattern: /SerialReads\(\(id\) => this\.read(Agent)?\(/ },
];

function copiesIn(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return OWN_COPY.filter(({ pattern }) => pattern.test(text)).map(({ what }) => `${relative(SRC, file)} keeps ${what}`);
  });
}

describe('the live agents of top and web', () => {
  for (const [view, viewFiles] of Object.entries(VIEWS)) {
    it(`src/${view}/ feeds from client/live-agents.ts and keeps no list of its own`, () => {
      const files = viewFiles(filesOf(view));
      assert.ok(
        files.some((file) => /\bLiveAgents\b/.test(readFileSync(file, 'utf8')) && /from '(\.\.\/)+client\/index\.ts'/.test(readFileSync(file, 'utf8'))),
        `no file of src/${view}/ takes LiveAgents from the client`,
      );
      assert.deepEqual(copiesIn(files), []);
    });
  }

  it('finds a copy when there is one', () => {
    const found = copiesIn([join(SRC, 'client/live-feed.ts')]);
    assert.ok(found.some((line) => line.includes('subscription')) && found.some((line) => line.includes('inbox read')), found.join('\n'));
  });
});
