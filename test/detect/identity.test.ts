import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inferForegroundFromChildGroups } from '../../src/detect/child-groups.ts';
import { identifyAgent } from '../../src/detect/identity.ts';
import type { ForegroundProcess, ProcessMember } from '../../src/terminal/types.ts';
import { ManifestSet } from '../../src/manifest-store/manifest-set.ts';
import { manifest } from './helpers.ts';

const RULE = '[[rules]]\nid = "r"\nstate = "idle"\ncontains = ["x"]\n';
const MANIFESTS = [
  manifest(`[identity]\nexecutables = ["claude", ".claude-unwrapped"]\npackages = ["@anthropic-ai/claude-code"]\n${RULE}`, 'id = "claude"\nversion = "1.0.0"\naliases = ["claude-code"]\n'),
  manifest(`[identity]\nexecutables = ["codex"]\npackages = ["@openai/codex"]\n${RULE}`, 'id = "codex"\nversion = "1.0.0"\n'),
  manifest(`[identity]\nexecutables = ["copilot"]\npackages = ["@github/copilot", "@github/copilot-linux-x64"]\n${RULE}`, 'id = "copilot"\nversion = "1.0.0"\n'),
  manifest(`[identity]\nexecutables = ["aider"]\nargv_patterns = ['(^|\\s)-m\\s+aider(\\s|$)']\n${RULE}`, 'id = "aider"\nversion = "1.0.0"\n'),
];

let nextPid = 100;
function member(argv: string[], extra: Partial<ProcessMember> = {}): ProcessMember {
  const pid = extra.pid ?? nextPid++;
  return { pid, ppid: 1, pgid: extra.pgid ?? pid, comm: (argv[0] ?? '').split('/').pop()!.slice(0, 15), exe: null, argv, agentHint: null, ...extra };
}

function group(...members: ProcessMember[]): ForegroundProcess {
  return { pgid: members[0]!.pgid, leader: members[0]!, members };
}

function agentOf(...argvs: string[][]): string | null {
  return identifyAgent(group(...argvs.map((argv) => member(argv))), MANIFESTS)?.agent ?? null;
}

describe('identity', () => {
  const table: [string, string[], string | null][] = [
    ['a bare executable', ['claude'], 'claude'],
    ['an absolute executable path', ['/home/u/.local/bin/claude', '--resume'], 'claude'],
    ['node running the package script', ['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js'], 'claude'],
    ['node with flags before the script', ['/usr/bin/node', '--no-warnings', '--import', 'tsx', '/x/node_modules/@openai/codex/bin/codex.js'], 'codex'],
    ['a Nix wrapper binary', ['/nix/store/abc-claude-code-2.1/bin/.claude-unwrapped'], 'claude'],
    ['a shell running the agent script', ['bash', '/home/u/bin/codex', '--yolo'], 'codex'],
    ['env with assignments', ['env', 'FOO=1', '-u', 'BAR', 'codex'], 'codex'],
    ['npx with a versioned package', ['npx', '-y', '@openai/codex@0.171.0'], 'codex'],
    ['npx after it rewrote its title', ['npm exec @anthropic-ai/claude-code'], 'claude'],
    ['pnpm dlx', ['pnpm', 'dlx', '@anthropic-ai/claude-code'], 'claude'],
    ['bunx', ['bunx', 'codex'], 'codex'],
    ['deno run', ['deno', 'run', '-A', '/x/node_modules/@openai/codex/bin/codex.js'], 'codex'],
    ['python3 -c naming codex in its code', ['python3', '-c', 'import os; os.system("codex")', 'codex'], null],
    ['node -e', ['node', '-e', 'require("@openai/codex")'], null],
    ['sh -c', ['sh', '-c', 'claude --resume'], null],
    ['python -m with an argv pattern in the manifest', ['python3.12', '-m', 'aider', '--model', 'x'], 'aider'],
    ['an unrelated program', ['vim', 'notes.md'], null],
  ];
  for (const [name, argv, expected] of table) {
    it(`${expected ?? 'no agent'} for ${name}: ${argv.join(' ')}`, () => assert.equal(agentOf(argv), expected));
  }

  it('finds the copilot native child whose comm is MainThread by its package path', () => {
    const leader = member(['node', '/usr/lib/node_modules/some-wrapper/index.js']);
    const child = member(['/usr/lib/node_modules/@github/copilot-linux-x64/copilot'], { comm: 'MainThread', pgid: leader.pgid, exe: '/usr/lib/node_modules/@github/copilot-linux-x64/copilot' });
    assert.equal(identifyAgent(group(leader, child), MANIFESTS)?.agent, 'copilot');
  });

  it('prefers the group leader over other members', () => {
    const leader = member(['codex']);
    const other = member(['claude'], { pid: 5, pgid: leader.pgid });
    assert.equal(identifyAgent(group(leader, other), MANIFESTS)?.agent, 'codex');
  });

  it('lets a CORRAL_AGENT hint win, by id or alias, and ignores an unknown one', () => {
    const wrapper = member(['fence', '--', 'something'], { agentHint: 'claude-code' });
    const match = identifyAgent(group(wrapper), MANIFESTS);
    assert.deepEqual([match?.agent, match?.via], ['claude', 'hint']);
    assert.equal(identifyAgent(group(member(['codex'], { agentHint: 'nope' })), MANIFESTS)?.agent, 'codex');
  });

  it('matches the exe path the caller resolved from a symlink', () => {
    const resolved = member(['/usr/local/bin/cc'], { exe: '/opt/claude/versions/2.1.197/claude' });
    assert.equal(identifyAgent(group(resolved), MANIFESTS)?.via, 'executable');
  });

  it('tells the two grok products apart with the bundled manifests', () => {
    const bundled = new ManifestSet({ userDir: null, catalogDir: null }).all();
    const agent = (one: ProcessMember): string | null => identifyAgent(group(one), bundled)?.agent ?? null;
    // grok-cli as the daemon sees it once the bin link is resolved (test/daemon/agents/agent-identity.test.ts).
    assert.equal(agent(member(['node', '/usr/lib/node_modules/@vibe-kit/grok-cli/dist/index.js'], { exe: '/usr/bin/node' })), 'grok-cli');
    assert.equal(agent(member(['/home/u/.grok/bin/grok'], { exe: '/home/u/.grok/bin/grok' })), 'grok');
    assert.equal(agent(member(['grok', '--resume'], { exe: '/opt/grok/grok' })), 'grok');
  });

  it('works when the group leader already exited', () => {
    const child = member(['codex'], { pgid: 42 });
    assert.equal(identifyAgent({ pgid: 42, leader: null, members: [child] }, MANIFESTS)?.agent, 'codex');
  });

  it('infers the newest child process group for child-groups detection', () => {
    const shell = member(['bash'], { pid: 10, pgid: 10 });
    const old = member(['sleep', '100'], { pid: 20, pgid: 20 });
    const agent = member(['codex'], { pid: 30, pgid: 30 });
    const tool = member(['rg', 'x'], { pid: 31, pgid: 30 });
    const inferred = inferForegroundFromChildGroups(shell, [shell, old, tool, agent]);
    assert.equal(inferred?.pgid, 30);
    assert.equal(inferred?.leader?.pid, 30);
    assert.deepEqual(inferred?.members.map((m) => m.pid), [30, 31]);
    assert.equal(inferForegroundFromChildGroups(shell, [shell]), null);
  });
});
