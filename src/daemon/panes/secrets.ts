/**
 * What of a spawn's environment is never written to the state file (docs/operations.md, "Secrets"):
 * a key whose name says it holds a secret, and a value that looks like one whatever its key.
 * A respawned pane gets a dropped key again only from the daemon's own environment.
 */

/** Word parts of a key name that mark it secret (the key is split at `_`, `-`, `.` and lower-to-upper case). */
const SECRET_WORDS = [
  'KEY', 'KEYS', 'APIKEY', 'TOKEN', 'TOKENS', 'SECRET', 'SECRETS', 'PASS', 'PASSWD', 'PASSWORD', 'PASSWORDS',
  'PASSPHRASE', 'CREDENTIAL', 'CREDENTIALS', 'CREDS', 'COOKIE', 'COOKIES', 'DSN', 'PRIVATE',
] as const;

/** Endings of a word part that mark it secret too: `PGPASS`, `AUTHTOKEN`, `ACCESSKEY`, `CLIENTSECRET`. */
const SECRET_ENDINGS = ['KEY', 'TOKEN', 'SECRET', 'PASS', 'PASSWD', 'PASSWORD'] as const;

/** A key whose name shows no secret but whose value is the directory the shell was in: never dropped. */
const NEVER_SECRET = new Set(['PWD', 'OLDPWD']);

function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
}

/**
 * A key name that holds a secret: a word part in SECRET_WORDS, ending in one of SECRET_ENDINGS, or
 * starting with AUTH (AUTH, AUTHORIZATION, AUTHTOKEN) except AUTHOR and AUTHORS (`GIT_AUTHOR_NAME`).
 */
export function isSecretKey(key: string): boolean {
  if (NEVER_SECRET.has(key.toUpperCase())) return false;
  return words(key).some(
    (word) =>
      (SECRET_WORDS as readonly string[]).includes(word) ||
      SECRET_ENDINGS.some((ending) => word.endsWith(ending)) ||
      (word.startsWith('AUTH') && word !== 'AUTHOR' && word !== 'AUTHORS'),
  );
}

/**
 * Token shapes found anywhere in a value, each named for the log and docs/operations.md. Every
 * repeat that a failed match could retry from each start is bounded, so a value of 64 KiB crafted
 * against them is judged in linear time (an unbounded URL scheme took 3.4 s for 64 KiB of `sk-sk-...`).
 */
const SECRET_VALUE_SHAPES: ReadonlyArray<readonly [string, RegExp]> = [
  ['a URL with a password', /\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s/?#@:]{0,256}:[^\s/?#@]{1,256}@/i],
  ['an sk- key (OpenAI, Anthropic and others)', /\bsk-[A-Za-z0-9_-]{16,}/],
  ['a GitHub token', /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/],
  ['a GitLab token', /\bglpat-[A-Za-z0-9_-]{20,}/],
  ['a Slack token', /\bxox[abposr]-[A-Za-z0-9-]{10,}/],
  ['an AWS access key id', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/],
  ['a Google API key', /\bAIza[0-9A-Za-z_-]{35}/],
  ['a Stripe key', /\b[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}/],
  ['an npm token', /\bnpm_[A-Za-z0-9]{36}/],
  ['a Hugging Face token', /\bhf_[A-Za-z0-9]{30,}/],
  // The header is short; the payload is looked for only behind a header and ends at the next dot.
  ['a JSON web token', /\beyJ[A-Za-z0-9_-]{8,512}\.eyJ[A-Za-z0-9_-]{8,}\./],
  ['a private key', /-----BEGIN [A-Z ]{0,64}PRIVATE KEY-----/],
];

/**
 * A run of base64 or base64url characters (a `/` ends a run, so that a path is judged by its parts)
 * reads as random from 32 characters when it mixes upper case, lower case and digits and has at
 * least 4.2 bits of entropy per character: 99% of random base64 strings of 32 characters do, words
 * and names rarely come near.
 */
const MIXED_CASE_MIN_LENGTH = 32;
const MIXED_CASE_MIN_BITS = 4.2;
/**
 * And when at least this share of neighbouring characters differ in class (upper, lower, digit,
 * other): about 0.65 in random base64, under 0.45 in names made of capitalised words
 * (`ThisIsAVeryLongVariableName123` has entropy enough).
 */
const MIXED_CASE_MIN_SWITCHES = 0.45;
/**
 * A run of one case and digits is judged from 40 characters and needs more than 4.1 bits: random
 * base36 of 40 characters has that 99% of the time, while hex (16 symbols, 4 bits at most) and
 * UUIDs never do.
 */
const ONE_CASE_MIN_LENGTH = 40;
const ONE_CASE_MIN_BITS = 4.1;

/** Why a value reads as a secret, or null: a shape above, or a long random-looking run of characters. */
export function secretValueShape(value: string): string | null {
  for (const [name, shape] of SECRET_VALUE_SHAPES) if (shape.test(value)) return name;
  return (value.match(/[A-Za-z0-9+=_-]{32,}/g) ?? []).some(looksRandom) ? 'a long random string' : null;
}

function looksRandom(run: string): boolean {
  if (!/[0-9]/.test(run)) return false;
  const upper = /[A-Z]/.test(run);
  const lower = /[a-z]/.test(run);
  if (upper && lower) return run.length >= MIXED_CASE_MIN_LENGTH && entropyBits(run) >= MIXED_CASE_MIN_BITS && classSwitches(run) >= MIXED_CASE_MIN_SWITCHES;
  return (upper || lower) && run.length >= ONE_CASE_MIN_LENGTH && entropyBits(run) > ONE_CASE_MIN_BITS;
}

/** The share of neighbouring characters in `text` that differ in class (upper, lower, digit, other). */
function classSwitches(text: string): number {
  const classOf = (char: string) => (/[A-Z]/.test(char) ? 0 : /[a-z]/.test(char) ? 1 : /[0-9]/.test(char) ? 2 : 3);
  let switches = 0;
  for (let i = 1; i < text.length; i += 1) if (classOf(text[i]!) !== classOf(text[i - 1]!)) switches += 1;
  return switches / (text.length - 1);
}

/** Shannon entropy of the characters of `text`, in bits per character. */
function entropyBits(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The environment without its secrets, and the names of the keys dropped (never their values). */
export function withoutSecrets(env: Record<string, string>): { env: Record<string, string>; dropped: string[] } {
  const kept: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    if (isSecretKey(key) || secretValueShape(value) !== null) dropped.push(key);
    else kept[key] = value;
  }
  return { env: kept, dropped };
}
