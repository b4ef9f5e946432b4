import type { ForegroundProcess, ProcessMember } from '../terminal/types.ts';
import type { CompiledManifest } from './compiled.ts';
import { basename, unwrapArgv, type ProgramRef } from './unwrap.ts';

export interface IdentityMatch {
  agent: string;
  pid: number;
  via: 'hint' | 'executable' | 'package' | 'argv_pattern';
  detail: string; // what matched: the hint, the path, the package or the pattern
}

/**
 * Which agent a foreground process group runs. The `CORRAL_AGENT` hint of a member wins (when it
 * names a known manifest); otherwise the leader is tried first, then the other members in pid order,
 * each seen through runtimes and shims. Exe paths are taken as given: the caller resolves symlinks.
 */
export function identifyAgent(foreground: ForegroundProcess, manifests: readonly CompiledManifest[]): IdentityMatch | null {
  const members = orderedMembers(foreground);
  for (const member of members) {
    if (!member.agentHint) continue;
    const manifest = byIdOrAlias(manifests, member.agentHint.trim());
    if (manifest) return { agent: manifest.spec.id, pid: member.pid, via: 'hint', detail: `CORRAL_AGENT=${member.agentHint}` };
  }
  for (const member of members) {
    const match = matchMember(member, manifests);
    if (match) return match;
  }
  return null;
}

/** The manifest a single process runs, or null. */
export function matchMember(member: ProcessMember, manifests: readonly CompiledManifest[]): IdentityMatch | null {
  const refs: ProgramRef[] = [...(member.exe ? [{ kind: 'path' as const, value: member.exe }] : []), ...unwrapArgv(member.argv)];
  // Innermost program first: `node /…/claude-code/cli.js` is claude, not a generic node.
  for (const ref of refs.reverse()) {
    for (const manifest of manifests) {
      const via = matchRef(ref, manifest);
      if (via) return { agent: manifest.spec.id, pid: member.pid, via, detail: ref.value };
    }
  }
  const joined = member.argv.join(' ');
  for (const manifest of manifests) {
    const pattern = manifest.identity.argvPatterns.find((candidate) => candidate.test(joined));
    if (pattern) return { agent: manifest.spec.id, pid: member.pid, via: 'argv_pattern', detail: pattern.source };
  }
  return null;
}

function matchRef(ref: ProgramRef, manifest: CompiledManifest): IdentityMatch['via'] | null {
  const { executables, packages } = manifest.identity;
  if (ref.kind === 'package') return packages.includes(ref.value) ? 'package' : null;
  const name = basename(ref.value);
  if (executables.has(name) || executables.has(unwrappedName(name))) return 'executable';
  if (packages.some((pkg) => ref.value.includes(`node_modules/${pkg}/`))) return 'package';
  return null;
}

/** Nix and similar wrappers rename the real binary `.claude-wrapped` or `.claude-unwrapped`. */
function unwrappedName(name: string): string {
  const match = /^\.(.+)-(?:un)?wrapped$/.exec(name);
  return match ? match[1]! : name;
}

function orderedMembers(foreground: ForegroundProcess): ProcessMember[] {
  const leader = foreground.leader;
  const others = foreground.members.filter((member) => member.pid !== leader?.pid).sort((a, b) => a.pid - b.pid);
  return leader ? [leader, ...others] : others;
}

function byIdOrAlias(manifests: readonly CompiledManifest[], id: string): CompiledManifest | undefined {
  return manifests.find((manifest) => manifest.spec.id === id) ?? manifests.find((manifest) => manifest.spec.aliases.includes(id));
}
