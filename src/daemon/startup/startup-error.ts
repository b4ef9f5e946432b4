/** Why the daemon could not start, with a stable code and a message saying what to do. Never on the wire. */
export class StartupError extends Error {
  constructor(
    readonly code:
      | 'socket_path_too_long'
      | 'socket_dir_insecure'
      | 'socket_dir_unusable'
      | 'socket_not_a_socket'
      | 'daemon_running',
    message: string,
  ) {
    super(message);
    this.name = 'StartupError';
  }
}
