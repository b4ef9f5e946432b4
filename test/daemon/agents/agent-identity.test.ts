// Identity as the daemon does it: the bundled manifests, and script paths resolved on the real file
// system. Two products ship a `grok` command: Grok Build (a native binary) and @vibe-kit/grok-cli (a
// node script, reached through a `bin/grok` symlink into its package).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { manifestIdentifier } from '../../../src/daemon/agents/manifest-identifier.ts';
import { ManifestSet } from '../../../src/manifest-store/manifest-set.ts';
import type { ForegroundProcess, ProcessMember } from '../../../src/terminal/types.ts';

const root = mkdtempSync(join(tmpdir(), 'corral-identity-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A global npm install: `<prefix>/bin/<name>` links to the package's script. */
function npmInstall(prefix: string, pkg: string, script: string, name: string): string {
  const target = join(prefix, 'lib', 'node_modules', pkg, script);
  mkdirSync(join(target, '..'), { recursive: true });
  writeFileSync(target, '#!/usr/bin/env node\n');
  mkdirSync(join(prefix, 'bin'), { recursive: true });
  const link = join(prefix, 'bin', name);
  symlinkSync(target, link);
  return link;
}

function member(argv: string[], exe: string): ProcessMember {
  return { pid: 4242, ppid: 1, pgid: 4242, comm: 'x', exe, argv, agentHint: null };
}

function group(one: ProcessMember): ForegroundProcess {
  return { pgid: one.pgid, leader: one, members: [one] };
}

describe('identity of a pane through the daemon', () => {
  const identify = manifestIdentifier(new ManifestSet({ userDir: null, catalogDir: null }));

  it('names the community grok-cli by the package its bin/grok link points into', () => {
    const grok = npmInstall(join(root, 'npm'), '@vibe-kit/grok-cli', 'dist/index.js', 'grok');
    // The kernel runs the shebang: node, then the script as the shell found it on PATH.
    const node = member(['node', grok], '/usr/bin/node');
    assert.equal(identify.group(group(node))?.agent, 'grok-cli');
    assert.equal(identify.process(node), 'grok-cli');
  });

  it('still names Grok Build by its native grok binary', () => {
    const dir = join(root, 'grok-build', 'bin');
    mkdirSync(dir, { recursive: true });
    const binary = join(dir, 'grok');
    writeFileSync(binary, '\x7fELF');
    const native = member([binary], binary);
    assert.equal(identify.group(group(native))?.agent, 'grok');
    assert.equal(identify.process(native), 'grok');
    assert.equal(identify.group(group(member(['grok', '--resume'], binary)))?.agent, 'grok');
  });

  it('resolves a link only to add evidence: a linked agent keeps its name', () => {
    const gemini = npmInstall(join(root, 'npm2'), '@google/gemini-cli', 'dist/index.js', 'gemini');
    assert.equal(identify.group(group(member(['node', gemini], '/usr/bin/node')))?.agent, 'gemini');
    const renamed = join(root, 'gem');
    symlinkSync(gemini, renamed);
    assert.equal(identify.group(group(member(['node', renamed], '/usr/bin/node')))?.agent, 'gemini');
  });
});
