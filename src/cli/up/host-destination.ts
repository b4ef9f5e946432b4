/**
 * The ssh destination of an agent's `host`: one with `@` is used as written; a bare name is handed to
 * ssh as it is (its own config may name it).
 * AT MERGE: resolve a bare name through `hostByName` of src/client/fleet/hosts.ts (the config's
 * `[[hosts]]`, `ssh = "user@box"`), and say so in docs/fleet.md.
 */
export function sshDestination(host: string): string {
  return host;
}
