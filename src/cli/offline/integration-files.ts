import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'smol-toml';
import type { IntegrationSpec } from '../../detect/manifest-spec.ts';
import { hookEntries, isCorralHook } from '../../integration/hook-entries.ts';
import { shellQuote } from '../../integration/launch.ts';
import { readSettingsFile, writeFileAtomically, writeTargetOf } from '../../integration/settings-file.ts';
import { RegularFileError } from '../../manifest-store/regular-file.ts';

/**
 * `corral integration install|uninstall|status`: Corral's hooks in the user's own settings file, for
 * agents started outside Corral. Install keeps the file as it was (`<file>.corral-backup`) and notes
 * what it wrote (`<file>.corral.json`); uninstall puts the original back byte for byte while the file
 * still holds what install wrote, and otherwise takes out only Corral's hooks. A settings file that is
 * a symlink stays one: its target is what is read and written (settings-file.ts).
 */
export interface IntegrationStatus {
  agent: string;
  file: string;
  installed: boolean;
  backup: string | null;
}

export interface IntegrationChange extends IntegrationStatus {
  /** installed, already_installed, restored (byte for byte), removed (only Corral's hooks), not_installed */
  result: 'installed' | 'already_installed' | 'restored' | 'removed' | 'not_installed';
}

interface InstallNote {
  existed: boolean;
  sha256: string;
  /** Codex: the user's own notify line as it was written, put back by a partial uninstall. */
  notifyLine?: string | null;
}

export class IntegrationError extends Error {
  constructor(
    readonly code: 'integration_unsupported' | 'integration_unreadable_file',
    message: string,
  ) {
    super(message);
  }
}

/** The user's file for this agent: `user_dir_env`'s folder if set, else `user_file` below $HOME. */
export function userFileOf(agent: string, spec: IntegrationSpec, env: NodeJS.ProcessEnv): string {
  if (spec.userFile === null) throw new IntegrationError('integration_unsupported', `${agent} declares no user file to install hooks into`);
  const dir = spec.userDirEnv ? env[spec.userDirEnv] : undefined;
  if (dir) return join(dir, basename(spec.userFile));
  if (!env.HOME) throw new IntegrationError('integration_unsupported', 'HOME is not set: cannot find the user settings file');
  return spec.userFile.replace(/^~(?=\/)/, env.HOME);
}

export function integrationStatus(agent: string, spec: IntegrationSpec, file: string): IntegrationStatus {
  const content = readSettings(file)?.toString('utf8') ?? null;
  return { agent, file, installed: content !== null && holdsHooks(spec, content, file), backup: existsSync(backupOf(file)) ? backupOf(file) : null };
}

export function installIntegration(agent: string, spec: IntegrationSpec, file: string, hookArgv: string[]): IntegrationChange {
  const before = readSettings(file);
  const text = before?.toString('utf8') ?? '';
  if (before !== null && holdsHooks(spec, text, file)) return { ...integrationStatus(agent, spec, file), result: 'already_installed' };
  const after = spec.mechanism === 'notify_config' ? withNotify(text, hookArgv, file) : withHooks(spec, text, hookArgv.map(shellQuote).join(' '), file);
  if (!existsSync(noteOf(file))) {
    // The first install keeps the original; a later one (after a manual removal) keeps that first original.
    if (before !== null) writeFileAtomically(backupOf(file), before, { throughLinks: false });
    const notifyLine = spec.mechanism === 'notify_config' ? (NOTIFY_LINE.exec(topLevel(text))?.[0] ?? null) : undefined;
    writeFileAtomically(noteOf(file), JSON.stringify({ existed: before !== null, sha256: sha256(after), notifyLine } satisfies InstallNote), { throughLinks: false });
  } else {
    const note = readNote(file);
    writeFileAtomically(noteOf(file), JSON.stringify({ ...note, sha256: sha256(after) }), { throughLinks: false });
  }
  writeFileAtomically(file, after, { throughLinks: true });
  return { ...integrationStatus(agent, spec, file), result: 'installed' };
}

export function uninstallIntegration(agent: string, spec: IntegrationSpec, file: string): IntegrationChange {
  const note = existsSync(noteOf(file)) ? readNote(file) : null;
  const current = readSettings(file);
  if (note !== null && current !== null && sha256(current) === note.sha256) {
    // What install found goes back where it was read: a link keeps pointing, its target gets the bytes.
    if (!note.existed) rmSync(writeTargetOf(file));
    else if (existsSync(backupOf(file))) {
      writeFileAtomically(file, readSettings(backupOf(file)) ?? Buffer.alloc(0), { throughLinks: true });
      rmSync(backupOf(file));
    } else throw new IntegrationError('integration_unreadable_file', `${backupOf(file)} is missing: cannot restore ${file}; remove Corral's hooks by hand`);
    rmSync(noteOf(file), { force: true });
    return { ...integrationStatus(agent, spec, file), result: 'restored' };
  }
  const text = current?.toString('utf8') ?? '';
  if (current === null || !holdsHooks(spec, text, file)) {
    rmSync(noteOf(file), { force: true });
    return { ...integrationStatus(agent, spec, file), result: 'not_installed' };
  }
  // The user changed the file since: take out only Corral's hooks, keep their changes and the backup.
  writeFileAtomically(file, spec.mechanism === 'notify_config' ? withoutNotify(text, file, note?.notifyLine) : withoutHooks(spec, text, file), { throughLinks: true });
  rmSync(noteOf(file), { force: true });
  return { ...integrationStatus(agent, spec, file), result: 'removed' };
}

/** The settings file's bytes, null when absent; a FIFO, device or oversized file is refused, changing nothing. */
function readSettings(file: string): Buffer | null {
  try {
    return readSettingsFile(file);
  } catch (error) {
    if (error instanceof RegularFileError) {
      throw new IntegrationError('integration_unreadable_file', `${error.message}; nothing was changed: make it a regular file, or pass --file`);
    }
    throw error;
  }
}

// ---- settings.json (Claude Code, Gemini CLI, Qwen Code)

function readJson(text: string, file: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new IntegrationError('integration_unreadable_file', `${file} is not a JSON object; fix it or move it away, then run this again`);
}

function hooksOf(settings: Record<string, unknown>): Record<string, unknown[]> {
  const hooks = settings.hooks;
  return typeof hooks === 'object' && hooks !== null && !Array.isArray(hooks) ? (hooks as Record<string, unknown[]>) : {};
}

function isOurs(spec: IntegrationSpec, entry: unknown): boolean {
  const inner = (entry as { hooks?: unknown })?.hooks;
  return Array.isArray(inner) && inner.some((hook) => typeof hook?.command === 'string' && isCorralHook(hook.command, spec.hook));
}

function withHooks(spec: IntegrationSpec, text: string, command: string, file: string): string {
  const settings = readJson(text, file);
  const hooks = { ...hooksOf(settings) };
  for (const [event, ours] of Object.entries(hookEntries(spec, command))) {
    hooks[event] = [...(Array.isArray(hooks[event]) ? hooks[event]! : []), ...ours];
  }
  return `${JSON.stringify({ ...settings, hooks }, null, 2)}\n`;
}

function withoutHooks(spec: IntegrationSpec, text: string, file: string): string {
  const settings = readJson(text, file);
  const hooks: Record<string, unknown[]> = {};
  for (const [event, entries] of Object.entries(hooksOf(settings))) {
    const kept = Array.isArray(entries) ? entries.filter((entry) => !isOurs(spec, entry)) : entries;
    if (!Array.isArray(kept) || kept.length > 0) hooks[event] = kept;
  }
  const { hooks: _hooks, ...rest } = settings;
  return `${JSON.stringify(Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest, null, 2)}\n`;
}

// ---- config.toml (Codex): one top-level `notify` line, chained to the user's own

const NOTIFY_LINE = /^notify\s*=.*$/m;

function topLevel(text: string): string {
  const table = /^\s*\[/m.exec(text);
  return table ? text.slice(0, table.index) : text;
}

function notifyOf(text: string, file: string): string[] | null {
  try {
    const value = parse(text).notify;
    return Array.isArray(value) && value.every((part) => typeof part === 'string') ? (value as string[]) : null;
  } catch {
    throw new IntegrationError('integration_unreadable_file', `${file} is not valid TOML; fix it, then run this again`);
  }
}

function withNotify(text: string, hookArgv: string[], file: string): string {
  const users = notifyOf(text, file);
  const line = NOTIFY_LINE.exec(topLevel(text));
  if (users !== null && line === null) {
    throw new IntegrationError('integration_unreadable_file', `${file} sets notify in a form this command does not edit (over several lines); put it on one line, then run this again`);
  }
  const argv = [...hookArgv, ...(users && users.length > 0 ? ['--chain', JSON.stringify(users)] : [])];
  const ours = `notify = ${JSON.stringify(argv)}`; // a JSON array of strings is a TOML array
  return line ? `${text.slice(0, line.index)}${ours}${text.slice(line.index + line[0].length)}` : `${ours}\n${text}`;
}

function withoutNotify(text: string, file: string, usersLine: string | null | undefined): string {
  const argv = notifyOf(text, file) ?? [];
  const line = NOTIFY_LINE.exec(topLevel(text));
  if (!line) return text;
  if (usersLine) return `${text.slice(0, line.index)}${usersLine}${text.slice(line.index + line[0].length)}`;
  const chain = argv.indexOf('--chain');
  const users = chain >= 0 ? (JSON.parse(argv[chain + 1] ?? '[]') as string[]) : [];
  if (users.length > 0) return `${text.slice(0, line.index)}notify = ${JSON.stringify(users)}${text.slice(line.index + line[0].length)}`;
  return `${text.slice(0, line.index)}${text.slice(line.index + line[0].length).replace(/^\n/, '')}`;
}

function holdsHooks(spec: IntegrationSpec, text: string, file: string): boolean {
  if (spec.mechanism === 'notify_config') {
    const argv = notifyOf(text, file);
    return argv !== null && isCorralHook(argv, spec.hook);
  }
  return Object.values(hooksOf(readJson(text, file))).some((entries) => Array.isArray(entries) && entries.some((entry) => isOurs(spec, entry)));
}

// ---- files

const backupOf = (file: string) => `${file}.corral-backup`;
const noteOf = (file: string) => `${file}.corral.json`;
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function readNote(file: string): InstallNote {
  try {
    return JSON.parse(readSettingsFile(noteOf(file))?.toString('utf8') ?? '') as InstallNote;
  } catch {
    throw new IntegrationError('integration_unreadable_file', `${noteOf(file)} is damaged; compare ${file} with ${backupOf(file)} and remove the note`);
  }
}
