import { existsSync } from 'node:fs';
import { CorralError } from '../../protocol/errors.ts';
import { SERVER_RELOAD_CONFIG, type ConfigReloadResult } from '../../protocol/methods/server.ts';
import { implement, type HandlerBinding } from '../rpc/handler.ts';
import type { Logger } from '../logger.ts';
import { ConfigError } from './config-error.ts';
import { CONFIG_KEYS, type CorralConfig } from './config-schema.ts';
import { loadConfig } from './load-config.ts';

/**
 * The keys a running daemon applies at once; every other key is read at start only (the event ring's
 * size, the arbiter's windows, the in-band rule, the respawn policy) and needs a restart.
 */
export const LIVE_KEYS: readonly string[] = ['notify.command', 'notify.cooldown_ms', 'notify.timeout_ms', 'panes.keep_exited', 'panes.use_caller', 'panes.pass_env', 'integration.enabled', 'policy.files', 'budgets'];

/** Dotted keys (`notify.command`) whose value differs between two configs, in the order of CONFIG_KEYS. */
function changedKeys(before: CorralConfig, after: CorralConfig): string[] {
  const changed: string[] = [];
  for (const [table, keys] of Object.entries(CONFIG_KEYS) as [keyof typeof CONFIG_KEYS, (typeof CONFIG_KEYS)[keyof typeof CONFIG_KEYS]][]) {
    for (const [key, spec] of Object.entries(keys)) {
      const was = (before[table] as unknown as Record<string, unknown>)[spec.field];
      const now = (after[table] as unknown as Record<string, unknown>)[spec.field];
      if (JSON.stringify(was) !== JSON.stringify(now)) changed.push(`${table}.${key}`);
    }
  }
  if (JSON.stringify(before.budgets) !== JSON.stringify(after.budgets)) changed.push('budgets');
  return changed;
}

/**
 * Reads config.toml again on `server.reloadConfig` and SIGHUP: a file that fails to load changes
 * nothing (`config_invalid`, naming file, line and key); otherwise the live keys that changed are
 * handed to `apply`, and the others are named as needing a restart. Reloads never overlap: each is synchronous.
 */
export class ConfigReloader {
  /** What the live keys are now; the others are as `started` for the daemon's life. */
  private current: CorralConfig;

  constructor(
    /** Null for a daemon given its config without a file (in-process tests): a reload changes nothing. */
    private readonly source: { path: string; explicit: boolean } | null,
    private readonly started: CorralConfig,
    private readonly apply: (config: CorralConfig, changed: readonly string[]) => void,
    private readonly log: Logger,
    /** Run after every reload that read the file: what reads files of its own beside it (the policy) reads them again. */
    private readonly also: (config: CorralConfig) => void = () => undefined,
  ) {
    this.current = started;
  }

  reload(): ConfigReloadResult {
    if (this.source === null) return { file: null, applied: [], restart: [] };
    let next: CorralConfig;
    try {
      next = loadConfig(this.source.path, { explicit: this.source.explicit });
    } catch (error) {
      if (error instanceof ConfigError) throw new CorralError('config_invalid', `${error.message}; the daemon keeps the settings it had`, { file: error.file, line: error.line });
      throw error;
    }
    const applied = changedKeys(this.current, next).filter((key) => LIVE_KEYS.includes(key));
    // Against the start: a key changed by an earlier reload still waits for the restart.
    const restart = changedKeys(this.started, next).filter((key) => !LIVE_KEYS.includes(key));
    this.current = next;
    if (applied.length > 0) this.apply(next, applied);
    this.also(next);
    const file = existsSync(this.source.path) ? this.source.path : null;
    this.log.info({ file, applied, restart }, 'config reloaded');
    return { file, applied, restart };
  }

  handlers(): HandlerBinding[] {
    return [implement(SERVER_RELOAD_CONFIG, () => this.reload())];
  }
}
