import { realpathSync } from 'node:fs';
import { identifyAgent, matchMember } from '../../detect/identity.ts';
import type { ManifestSet } from '../../manifest-store/manifest-set.ts';
import type { ProcessMember } from '../../terminal/types.ts';
import type { AgentIdentifier } from './identifier.ts';

/**
 * Identity by the manifests in use. Script arguments that are symlinks (`/usr/bin/gemini` pointing into
 * `node_modules/@google/gemini-cli/`) are resolved too. A package the real path lies in is the most
 * specific evidence, so it wins over a name as given: two products ship a `grok` command (Grok Build's
 * native binary, and `@vibe-kit/grok-cli`, a node script whose real path names its package). Otherwise
 * the names as given decide, and the resolved paths are the last resort.
 */
export function manifestIdentifier(set: ManifestSet): AgentIdentifier {
  const manifests = set.all();
  return {
    group: (foreground) => {
      const resolved = identifyAgent({ ...foreground, leader: foreground.leader && resolveArgv(foreground.leader), members: foreground.members.map(resolveArgv) }, manifests);
      const match = resolved?.via === 'package' ? resolved : identifyAgent(foreground, manifests) ?? resolved;
      return match ? { agent: match.agent, pid: match.pid, by: match.via === 'hint' ? 'hint' : 'process', detail: match.detail } : null;
    },
    process: (member) => {
      const resolved = matchMember(resolveArgv(member), manifests);
      return (resolved?.via === 'package' ? resolved : matchMember(member, manifests) ?? resolved)?.agent ?? null;
    },
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
