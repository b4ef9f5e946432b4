/**
 * The environment every pane starts from: the login's own variables as the daemon got them, never
 * the daemon's whole environment (which holds `npm_*` when it was started through npm, or a service
 * manager's own). The list is documented in docs/operations.md ("A pane's environment").
 */
const LOGIN_VARIABLES = [
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'PATH',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'MAIL',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'DBUS_SESSION_BUS_ADDRESS',
  'SSH_AUTH_SOCK',
] as const;

/** Families of variables taken whole: the locale's categories and the XDG folders. */
const LOGIN_PREFIXES = ['LC_', 'XDG_'] as const;

/** The login's variables out of `from` (the daemon's environment), and the ones named in `pass` (`[panes] pass_env`). */
export function loginEnvironment(from: NodeJS.ProcessEnv, pass: readonly string[] = []): Record<string, string> {
  const base: Record<string, string> = {};
  for (const [key, value] of Object.entries(from)) {
    if (value === undefined) continue;
    const login = (LOGIN_VARIABLES as readonly string[]).includes(key) || LOGIN_PREFIXES.some((prefix) => key.startsWith(prefix));
    if (login || pass.includes(key)) base[key] = value;
  }
  return base;
}
