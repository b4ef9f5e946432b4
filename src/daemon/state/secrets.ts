/**
 * Environment keys never written to the state file: any name containing one of these words
 * (case-insensitive). A respawned pane gets them again from the daemon's own environment, or not at all.
 */
export const SECRET_KEY_WORDS = ['TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'PASSPHRASE', 'API_KEY', 'APIKEY', 'ACCESS_KEY', 'PRIVATE_KEY', 'CREDENTIAL', 'AUTH', 'COOKIE'] as const;

export function isSecretKey(key: string): boolean {
  const upper = key.toUpperCase();
  return SECRET_KEY_WORDS.some((word) => upper.includes(word));
}

/** The environment without its secrets, and the names of the keys dropped. */
export function withoutSecrets(env: Record<string, string>): { env: Record<string, string>; dropped: string[] } {
  const kept: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    if (isSecretKey(key)) dropped.push(key);
    else kept[key] = value;
  }
  return { env: kept, dropped };
}
