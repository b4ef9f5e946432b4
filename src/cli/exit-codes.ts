/** The CLI's exit codes; also printed by `--help` and listed in docs/protocol.md. */
export const EXIT = {
  ok: 0,
  daemonError: 1,
  usage: 2,
  notFound: 3,
  unreachable: 4,
  goneWhileWaiting: 5,
  blocked: 6,
  timeout: 124,
} as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    error from the daemon (message on stderr)
  2    usage error (also a fleet file refused by corral up or down)
  3    target not found or exited, or no agent there
  4    daemon unreachable, or lost while waiting (the socket path is printed)
  5    agent wait: the agent exited or was released while waiting (agent_gone)
  6    an agent is blocked on a question, which it will not leave by itself (agent_blocked):
       agent prompt refused, or corral up found it so before its prompt or in --wait
  124  timeout`;

/** The exit code for a stable error code, from the daemon or from the client itself. */
export function exitCodeFor(code: string): number {
  switch (code) {
    case 'pane_not_found':
    case 'pane_exited':
    case 'agent_not_found':
    case 'no_agent':
    case 'host_not_found':
    case 'session_not_found':
      return EXIT.notFound;
    case 'agent_gone':
      return EXIT.goneWhileWaiting;
    case 'agent_blocked':
      return EXIT.blocked;
    case 'invalid_params':
    case 'invalid_key':
    case 'usage':
    case 'fleet_file_invalid':
      return EXIT.usage;
    case 'daemon_unreachable':
    case 'web_unreachable':
    case 'connection_closed':
      return EXIT.unreachable;
    case 'timeout':
      return EXIT.timeout;
    default:
      return EXIT.daemonError;
  }
}
