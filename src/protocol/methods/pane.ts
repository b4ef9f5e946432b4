import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../method.ts';
import { Literals, Nullable, STRICT } from '../schema.ts';
import { paneTarget } from '../pane-target.ts';
import { paneCols, paneRows } from '../pane-size.ts';

/** `lost`: the process holding the PTY went away (host killed, reboot); `corral pane respawn` starts it again. */
export const PANE_LIFECYCLES = ['running', 'exited', 'lost'] as const;
export type PaneLifecycle = (typeof PANE_LIFECYCLES)[number];

/** The workspace a spawn without one goes to. */
export const DEFAULT_WORKSPACE = 'w1';
export const DEFAULT_COLS = 120;
export const DEFAULT_ROWS = 32;

/** A pane as listed: identity, command and lifecycle. Times are ms since the epoch. */
export const PaneInfo = Type.Object(
  {
    id: Type.String(), // 'w1:p1': workspace and pane, never reused within a daemon's life
    name: Nullable(Type.String()),
    workspace: Type.String(),
    state: Literals(PANE_LIFECYCLES),
    command: Type.String(),
    cwd: Type.String(),
    pid: Type.Number(),
    cols: Type.Number(),
    rows: Type.Number(),
    createdAt: Type.Number(),
    exitedAt: Nullable(Type.Number()),
    exitCode: Nullable(Type.Number()),
    signal: Nullable(Type.Number()),
    recovered: Type.Optional(Type.Literal(true, { description: 'Present when the pane outlived a previous daemon and was taken back from the pty host.' })),
    previous: Type.Optional(
      Type.Object(
        { agent: Nullable(Type.String()), state: Type.String(), session: Nullable(Type.String()) },
        { description: 'On a lost pane: its agent, last state and session as the previous daemon knew them.' },
      ),
    ),
    external: Type.Optional(
      Type.Object(
        { source: Type.String(), session: Type.String() },
        { description: 'An agent started outside Corral, known from its hook reports only (no process, no screen): their source and session.' },
      ),
    ),
  },
  { $id: 'PaneInfo', description: 'A pane as listed: identity, command and lifecycle. Times are ms since the epoch.' },
);
export type PaneInfo = Static<typeof PaneInfo>;

/** The PTY's foreground process group, as read from /proc. */
export const PaneProcess = Type.Object(
  {
    pgid: Type.Number(),
    pid: Type.Number(), // the group leader, or the first live member when the leader already exited
    exe: Nullable(Type.String()),
    argv: Type.Array(Type.String()),
    agentHint: Type.Optional(Type.String()), // CORRAL_AGENT from a member's environment
  },
  { $id: 'PaneProcess', description: "The PTY's foreground process group, as read from /proc." },
);
export type PaneProcess = Static<typeof PaneProcess>;

/** PaneInfo plus what may be large: args stay out of every event and list, and live here only. */
export const PaneDetail = Type.Composite([
  PaneInfo,
  Type.Object({
    args: Type.Array(Type.String()),
    env: Type.Record(Type.String(), Type.String(), {
      description: 'The environment the spawn asked for, as the daemon keeps it: secrets left out, their names in `droppedEnv`.',
    }),
    droppedEnv: Type.Optional(Type.Array(Type.String())),
    process: Nullable(PaneProcess), // null once exited, or when /proc cannot be read
    title: Nullable(Type.String()), // the last OSC 0/2 title the program set
  }),
]);
export type PaneDetail = Static<typeof PaneDetail>;

const target = paneTarget;
const name = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
  errorMessage: 'letters, digits, ".", "_" or "-", starting with a letter or digit',
});
const envName = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' });
const absolutePath = Type.String({ minLength: 1, maxLength: 4096, pattern: '^/', errorMessage: 'an absolute path' });

export const PANE_SPAWN = defineMethod({
  name: 'pane.spawn',
  summary: 'Start a command on a new PTY pane.',
  params: Type.Object(
    {
      command: Type.String({ minLength: 1, maxLength: 4096 }),
      args: Type.Optional(Type.Array(Type.String({ maxLength: 65536 }), { maxItems: 1024 })),
      name: Type.Optional(name),
      workspace: Type.Optional(name),
      cwd: Type.Optional(absolutePath),
      env: Type.Optional(Type.Record(envName, Type.String({ maxLength: 65536 }), { ...STRICT, maxProperties: 1024 })),
      cols: Type.Optional(paneCols),
      rows: Type.Optional(paneRows),
      integrate: Type.Optional(Type.Boolean()),
      caller: Type.Optional(
        Type.Object(
          { path: Type.Optional(Type.String({ maxLength: 65536 })), cwd: Type.Optional(absolutePath) },
          { ...STRICT, description: "The calling shell's PATH and folder: stand in for a missing `env.PATH` and `cwd` (docs/protocol.md)." },
        ),
      ),
    },
    STRICT,
  ),
  result: PaneInfo,
  errors: ['name_taken', 'spawn_failed'],
});

export const PANE_LIST = defineMethod({
  name: 'pane.list',
  summary: 'Every pane, running or exited.',
  params: Type.Object({}, STRICT),
  result: Type.Object({ panes: Type.Array(PaneInfo) }),
  errors: [],
});

export const PANE_GET = defineMethod({
  name: 'pane.get',
  summary: 'One pane with its foreground process and title.',
  params: Type.Object({ target }, STRICT),
  result: PaneDetail,
  errors: ['pane_not_found'],
});

export const PANE_KILL = defineMethod({
  name: 'pane.kill',
  summary: 'End the pane process group if running (SIGHUP, then SIGKILL) and remove the pane.',
  params: Type.Object({ target }, STRICT),
  result: PaneInfo,
  errors: ['pane_not_found'],
});

export const PANE_RESIZE = defineMethod({
  name: 'pane.resize',
  summary: 'Resize the PTY and the emulator.',
  params: Type.Object({ target, cols: paneCols, rows: paneRows }, STRICT),
  result: PaneInfo,
  errors: ['pane_not_found', 'pane_exited', 'pane_external'],
});

export const PANE_SEND = defineMethod({
  name: 'pane.send',
  summary: 'Write text, then named keys (Enter, Escape, Up, Tab, C-c, ...), to the pane.',
  params: Type.Object(
    {
      target,
      text: Type.Optional(Type.String({ maxLength: 1 << 20 })),
      keys: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { maxItems: 1024 })),
    },
    STRICT,
  ),
  result: Type.Object({ bytes: Type.Number() }),
  errors: ['pane_not_found', 'pane_exited', 'pane_external', 'invalid_key', 'pane_input_full'],
});

export const READ_SOURCES = ['screen', 'scrollback'] as const;

/** Lines of scrollback one `pane.read` returns at most; page back with `offset`. */
export const MAX_READ_LINES = 2000;

export const PANE_READ = defineMethod({
  name: 'pane.read',
  summary: 'The screen (bottom rows of the buffer) or the scrollback, as text; works on exited panes.',
  params: Type.Object(
    {
      target,
      source: Type.Optional(Literals(READ_SOURCES)),
      lines: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
      offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
      ansi: Type.Optional(Type.Boolean()),
      trim: Type.Optional(
        Type.Boolean({ description: 'Screen: leave out the blank rows below the last row with text, so `lines` counts rows with text.' }),
      ),
    },
    STRICT,
  ),
  result: Type.Object({
    source: Literals(READ_SOURCES),
    text: Type.String(),
    cols: Type.Number(),
    rows: Type.Number(),
    more: Type.Optional(Type.Boolean({ description: '(scrollback only) older lines remain beyond this page.' })),
  }),
  errors: ['pane_not_found'],
});

export const PANE_RESPAWN = defineMethod({
  name: 'pane.respawn',
  summary:
    "Start a lost or exited pane's command again: same id, name, cwd and size; with the agent's resume form and session id when its manifest declares one.",
  params: Type.Object({ target, fresh: Type.Optional(Type.Boolean()) }, STRICT),
  result: Type.Composite([PaneInfo, Type.Object({ resumed: Nullable(Type.String()) })]),
  errors: ['pane_not_found', 'pane_running', 'pane_external', 'spawn_failed'],
});
