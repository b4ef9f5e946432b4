import { INBAND_POLICIES, type InbandPolicy } from '../../arbiter/index.ts';
import type { Budget } from './budgets-config.ts';

/** The daemon's settings, as read from config.toml over the embedded defaults (docs/config.md). */
export interface CorralConfig {
  notify: {
    /** argv template run when an agent needs attention; null runs nothing. */
    command: string[] | null;
    cooldownMs: number;
    timeoutMs: number;
    /** Web Push (`[notify.push]`, docs/web.md "On your phone"). */
    push: {
      /** The VAPID `sub`: a `mailto:` or `https:` contact for the push services; null: a placeholder. */
      contact: string | null;
      /** RFC 8030 TTL of each push, and the life of its answer buttons. */
      ttlSeconds: number;
    };
    /** `[notify] quiet_hours`: `HH:MM-HH:MM` in local time when pushes and webhook posts wait (docs/web.md); null: none. */
    quietHours: string | null;
    /** `[notify.webhook]` (docs/web.md, "A webhook"): off while `url` is null. */
    webhook: WebhookConfig;
  };
  events: {
    retain: number;
    /** The ring's bound in bytes (events as JSON lines), besides `retain`. */
    retainBytes: number;
    subscriberBufferBytes: number;
  };
  arbiter: {
    debounceMs: number;
  };
  reports: {
    /** Which in-band reports count: `group`, `foreground` or `any` (docs/reporting.md). */
    inband: InbandPolicy;
  };
  panes: {
    /** What a start does with panes lost since the last daemon (docs/operations.md). */
    respawn: RespawnPolicy;
    /** Exited panes kept (screen, exit code) before the oldest are removed. */
    keepExited: number;
    /** Whether `pane.spawn` takes the caller's PATH and folder (the CLI's) where the spawn names none. */
    useCaller: boolean;
    /** The daemon's own variables a pane also starts with, beyond the login's (an API key, say). */
    passEnv: readonly string[];
  };
  integration: {
    /** Whether agents started by `pane.spawn` get their own hooks for the launch (docs/reporting.md). */
    enabled: boolean;
  };
  policy: {
    /** Policy files read after policy.toml beside config.toml, relative to its folder (docs/policy.md). */
    files: readonly string[];
  };
  /** `[[budgets]]`: spending limits (docs/usage.md, "Budgets"). */
  budgets: readonly Budget[];
}

export interface WebhookConfig {
  /** Where each item is posted: https, or http on a loopback address. */
  url: string | null;
  /** The HMAC-SHA256 key of the `X-Corral-Signature` header; null: unsigned. */
  secret: string | null;
  /** The item states posted (a spent budget always). */
  events: readonly ('blocked' | 'done' | 'budget' | 'failed')[];
  /** Only the items of these workspaces; empty: every one. */
  workspaces: readonly string[];
  /** Its own quiet hours, or `off`; null: `[notify] quiet_hours`. */
  quietHours: string | null;
  /** Where a person reaches `corral web` (its answer links start with it); null: no links. */
  publicUrl: string | null;
}

const RESPAWN_POLICIES = ['never', 'ask', 'auto'] as const;
export type RespawnPolicy = (typeof RESPAWN_POLICIES)[number];

export const DEFAULT_CONFIG: Readonly<CorralConfig> = Object.freeze({
  notify: Object.freeze({ command: null, cooldownMs: 30_000, timeoutMs: 10_000, push: Object.freeze({ contact: null, ttlSeconds: 3600 }),
    quietHours: null,
    webhook: Object.freeze({ url: null, secret: null, events: Object.freeze(['blocked', 'done', 'failed'] as const), workspaces: Object.freeze([]), quietHours: null, publicUrl: null }),
  }),
  events: Object.freeze({ retain: 10_000, retainBytes: 32 << 20, subscriberBufferBytes: 1 << 20 }),
  arbiter: Object.freeze({ debounceMs: 450 }),
  reports: Object.freeze({ inband: 'group' as InbandPolicy }),
  panes: Object.freeze({ respawn: 'never' as RespawnPolicy, keepExited: 100, useCaller: true, passEnv: Object.freeze([]) }),
  integration: Object.freeze({ enabled: true }),
  policy: Object.freeze({ files: Object.freeze([]) }),
  budgets: Object.freeze([]) as readonly Budget[],
});

export const NOTIFY_PLACEHOLDERS = ['agent', 'name', 'id', 'state', 'message', 'title'] as const;

export type KeySpec =
  | { kind: 'int'; min: number; max: number; field: string }
  | { kind: 'argv'; maxItems: number; field: string }
  | { kind: 'choice'; values: readonly string[]; field: string }
  | { kind: 'bool'; field: string }
  | { kind: 'names'; maxItems: number; field: string }
  | { kind: 'paths'; maxItems: number; field: string }
  | { kind: 'contact'; field: string }
  | { kind: 'quiet'; allowOff: boolean; field: string }
  | { kind: 'url'; field: string }
  | { kind: 'secret'; field: string }
  | { kind: 'states'; values: readonly string[]; field: string }
  | { kind: 'strings'; maxItems: number; field: string }
  | { kind: 'table'; keys: Record<string, KeySpec>; field: string };

/** Every key the file may hold, by table; anything else is an error. `field` is the CorralConfig name. */
export const CONFIG_KEYS: Record<Exclude<keyof CorralConfig, 'budgets'>, Record<string, KeySpec>> = {
  notify: {
    command: { kind: 'argv', maxItems: 64, field: 'command' },
    cooldown_ms: { kind: 'int', min: 0, max: 86_400_000, field: 'cooldownMs' },
    timeout_ms: { kind: 'int', min: 100, max: 600_000, field: 'timeoutMs' },
    push: {
      kind: 'table',
      field: 'push',
      keys: { contact: { kind: 'contact', field: 'contact' }, ttl_s: { kind: 'int', min: 60, max: 2_419_200, field: 'ttlSeconds' } },
    },
    quiet_hours: { kind: 'quiet', allowOff: false, field: 'quietHours' },
    webhook: {
      kind: 'table',
      field: 'webhook',
      keys: {
        url: { kind: 'url', field: 'url' },
        secret: { kind: 'secret', field: 'secret' },
        events: { kind: 'states', values: ['blocked', 'done', 'budget', 'failed'], field: 'events' },
        workspaces: { kind: 'strings', maxItems: 32, field: 'workspaces' },
        quiet_hours: { kind: 'quiet', allowOff: true, field: 'quietHours' },
        public_url: { kind: 'url', field: 'publicUrl' },
      },
    },
  },
  events: {
    retain: { kind: 'int', min: 100, max: 1_000_000, field: 'retain' },
    retain_bytes: { kind: 'int', min: 1 << 20, max: 1 << 30, field: 'retainBytes' },
    subscriber_buffer_bytes: { kind: 'int', min: 4096, max: 64 << 20, field: 'subscriberBufferBytes' },
  },
  arbiter: {
    debounce_ms: { kind: 'int', min: 0, max: 10_000, field: 'debounceMs' },
  },
  reports: {
    inband: { kind: 'choice', values: INBAND_POLICIES, field: 'inband' },
  },
  panes: {
    respawn: { kind: 'choice', values: RESPAWN_POLICIES, field: 'respawn' },
    keep_exited: { kind: 'int', min: 0, max: 100_000, field: 'keepExited' },
    use_caller: { kind: 'bool', field: 'useCaller' },
    pass_env: { kind: 'names', maxItems: 64, field: 'passEnv' },
  },
  integration: {
    enabled: { kind: 'bool', field: 'enabled' },
  },
  policy: {
    files: { kind: 'paths', maxItems: 16, field: 'files' },
  },
};
