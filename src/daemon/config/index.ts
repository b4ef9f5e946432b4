export { ConfigError } from './config-error.ts';
export { defaultConfigPath } from './config-path.ts';
export { CONFIG_KEYS, DEFAULT_CONFIG, NOTIFY_PLACEHOLDERS, type CorralConfig, type WebhookConfig } from './config-schema.ts';
export { loadConfig, parseConfig } from './load-config.ts';
