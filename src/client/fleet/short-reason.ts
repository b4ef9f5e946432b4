/**
 * Why a host is away in a word or two, for a line with no room for ssh's own (docs/fleet.md): read
 * from the reason's stable code and from what ssh and the bridge said (ssh-endpoint.ts, bridge.ts).
 * The whole reason stays the detail; this only names its kind.
 */
const BY_WORDS: readonly (readonly [RegExp, string])[] = [
  [/Permission denied|Authentication failed|Too many authentication failures|no matching (host key|key exchange)/i, 'auth failed'],
  [/Host key verification failed|HOST IDENTIFICATION HAS CHANGED/i, 'host key refused'],
  [/Could not resolve hostname|Name or service not known|nodename nor servname|Temporary failure in name resolution/i, 'unknown host'],
  [/timed out|Timeout, server|keepalive/i, 'timed out'],
  [/no daemon answers/i, 'no daemon'],
  [/command not found|No such file or directory|exited with 127/i, 'no corral'],
  [/closed the connection|closed by remote host|Connection reset|Broken pipe|ended by SIG/i, 'connection lost'],
  [/Connection refused|No route to host|Network is unreachable|Host is down/i, 'unreachable'],
];

const BY_CODE: Readonly<Record<string, string>> = {
  timeout: 'timed out',
  frame_too_large: 'broke the protocol',
  bad_reply: 'broke the protocol',
  connection_closed: 'connection lost',
  protocol_mismatch: 'other version',
};

export function shortReason(code: string | null, reason: string | null): string | null {
  if (reason === null && code === null) return null;
  if (code !== null && BY_CODE[code] !== undefined) return BY_CODE[code];
  for (const [words, short] of BY_WORDS) if (reason !== null && words.test(reason)) return short;
  return 'unreachable';
}
