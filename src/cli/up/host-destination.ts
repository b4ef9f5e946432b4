import { loadHosts } from '../../client/index.ts';

/**
 * The ssh destination of an agent's `host`: one with `@` is used as written; a bare name that
 * config.toml's `[[hosts]]` names is that host's `ssh` (docs/fleet.md); any other is handed to ssh
 * as it is (its own config may name it).
 */
export function sshDestination(host: string): string {
  if (host.includes('@')) return host;
  return loadHosts().find((spec) => spec.name === host)?.ssh ?? host;
}
