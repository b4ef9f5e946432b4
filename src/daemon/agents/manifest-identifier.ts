import { realpathSync } from 'node:fs';
import { identifyAgent, matchMember } from '../../detect/identity.ts';
import type { ManifestSet } from '../../manifest-store/manifest-set.ts';
import type { ProcessMember } from '../../terminal/types.ts';
import type { AgentIdentifier } from './identifier.ts';

/**
 * Identity by the manifests in use. Script arguments that are symlinks (`/usr/bin/gemini` pointing into
 * `node_modules/@google/gemini-cli/`) are resolved when the names as given match nothing.
 */
export function manifestIdentifier(set: ManifestSet): AgentIdentifier {
  const manifests = set.all();
  return {
    group: (foreground) => {
      const direct = identifyAgent(foreground, manifests);
      if (direct) return { agent: direct.agent, pid: direct.pid };
      const resolved = identifyAgent({ ...foreground, leader: foreground.leader && resolveArgv(foreground.leader), members: foreground.members.map(resolveArgv) }, manifests);
      return resolved ? { agent: resolved.agent, pid: resolved.pid } : null;
    },
    process: (member) => (matchMember(member, manifests) ?? matchMember(resolveArgv(member), manifests))?.agent ?? null,
    hint: (value) => {
      const id = value.trim();
      return (manifests.find((m) => m.spec.id === id) ?? manifests.find((m) => m.spec.aliases.includes(id)))?.spec.id ?? null;
    },
  };
}

function resolveArgv(member: ProcessMember): ProcessMember {
  return { ...member, argv: member.argv.map((arg, index) => (index > 0 && arg.startsWith('/') ? realpath(arg) : arg)) };
}

function realpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
