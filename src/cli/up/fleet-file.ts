import { dirname, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { readRegularFileBytes, RegularFileError } from '../../manifest-store/regular-file.ts';
import { isPlainObject } from '../../protocol/plain-object.ts';

/** A fleet file larger than this is not a fleet file (prompts included). */
export const MAX_FLEET_FILE_BYTES = 1 << 20;
/** Most agents one file declares. */
export const MAX_AGENTS = 256;
/** The file `corral up` and `corral down` read when none is named. */
export const DEFAULT_FLEET_FILE = 'corral.toml';

/** One `[[agents]]` table, checked (docs/fleet.md). */
export interface DeclaredAgent {
  name: string;
  /** The program and its arguments; no shell is used. */
  command: string[];
  /** As written: relative to the file's folder (on another host: to the login's folder there). */
  cwd?: string;
  env: Record<string, string>;
  workspace?: string;
  /** Another machine: a host name from the config's `[[hosts]]`, or `user@box`. */
  host?: string;
  /** Typed once the agent is first idle after `corral up` started it. */
  prompt?: string;
  /** The branch a git worktree of its own is made from (worktree.ts). */
  worktree?: string;
  /** The line of its `[[agents]]` header, for messages. */
  line: number | null;
}

export interface FleetFile {
  /** The file as named (`-`: standard input). */
  file: string;
  /** The folder relative paths start from. */
  dir: string;
  agents: DeclaredAgent[];
}

/** Why a fleet file was refused; nothing is started or ended. */
export class FleetFileError extends Error {
  readonly code = 'fleet_file_invalid';

  constructor(file: string, line: number | null, problem: string) {
    super(`${file}${line !== null ? `:${line}` : ''}: ${problem} (docs/fleet.md)`);
    this.name = 'FleetFileError';
  }
}

/** Reads and checks a fleet file: a regular file only, opened without blocking, up to the cap; `-` reads standard input. */
export async function readFleetFile(file: string, cwd = process.cwd()): Promise<FleetFile> {
  if (file === '-') return parseFleetFile(await readStdin(file), '-', cwd);
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = readRegularFileBytes(path, MAX_FLEET_FILE_BYTES, { followSymlink: true, what: 'fleet file' }).bytes.toString('utf8');
  } catch (error) {
    if (!(error instanceof RegularFileError)) throw error;
    const hint = error.code === 'file_absent' ? `no such file; write one (docs/fleet.md) or name it: corral up FILE` : error.problem;
    throw new FleetFileError(file, null, hint);
  }
  return parseFleetFile(text, file, dirname(path));
}

async function readStdin(file: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FLEET_FILE_BYTES) throw new FleetFileError(file, null, `over ${MAX_FLEET_FILE_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const NAME_HINT = 'letters, digits, ".", "_" or "-", starting with a letter or digit, at most 64';
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A branch name git takes and no option can be read from. */
const BRANCH = /^(?!.*\.\.)(?!.*\/\/)(?!.*@\{)[A-Za-z0-9_][A-Za-z0-9._/-]{0,199}$/;
/** What ssh takes as a destination and no option: `box`, `user@box`, `user@10.0.0.2`. */
const HOST = /^[A-Za-z0-9_][A-Za-z0-9._@:%-]{0,254}$/;

const KEYS = ['name', 'command', 'cwd', 'env', 'workspace', 'host', 'prompt', 'worktree'] as const;

export function parseFleetFile(text: string, file: string, dir: string): FleetFile {
  if (Buffer.byteLength(text) > MAX_FLEET_FILE_BYTES) throw new FleetFileError(file, null, `over ${MAX_FLEET_FILE_BYTES} bytes`);
  let document: Record<string, unknown>;
  try {
    document = parse(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) throw new FleetFileError(file, error.line, `not valid TOML: ${error.message.split('\n')[0]}`);
    throw error;
  }
  const lines = new Lines(text);
  for (const key of Object.keys(document)) {
    if (key !== 'agents') throw new FleetFileError(file, lines.top(key), `unknown key "${key}" (a fleet file holds [[agents]] tables only; hosts are named in the config's [[hosts]])`);
  }
  const tables = document.agents;
  if (tables === undefined) throw new FleetFileError(file, null, 'declares no agents: add an [[agents]] table with name and command');
  if (!Array.isArray(tables) || !tables.every(isPlainObject)) throw new FleetFileError(file, lines.top('agents'), '"agents" must be [[agents]] tables');
  if (tables.length > MAX_AGENTS) throw new FleetFileError(file, null, `declares ${tables.length} agents; at most ${MAX_AGENTS}`);
  const agents = tables.map((table, index) => checkAgent(table, index, file, lines));
  const seen = new Map<string, DeclaredAgent>();
  for (const agent of agents) {
    const first = seen.get(agent.name);
    if (first) throw new FleetFileError(file, agent.line, `agent name "${agent.name}" is declared twice (first at line ${first.line}); each agent needs its own name`);
    seen.set(agent.name, agent);
  }
  return { file, dir, agents };
}

function checkAgent(table: Record<string, unknown>, index: number, file: string, lines: Lines): DeclaredAgent {
  const header = lines.agentHeader(index);
  const fail = (key: string | null, problem: string): never => {
    throw new FleetFileError(file, key === null ? header : lines.inAgent(index, key), `agents[${index}]${key ? `.${key}` : ''}: ${problem}`);
  };
  for (const key of Object.keys(table)) {
    if (!(KEYS as readonly string[]).includes(key)) fail(key, `unknown key "${key}" (known: ${KEYS.join(', ')})`);
  }
  const { name, command, cwd, env, workspace, host, prompt, worktree } = table;
  if (name === undefined) fail(null, 'needs a "name"');
  if (typeof name !== 'string' || !NAME.test(name)) fail('name', `must be a name: ${NAME_HINT}`);
  if (command === undefined) fail(null, 'needs a "command": the program and its arguments, as an array of strings');
  if (!Array.isArray(command) || command.length === 0 || command.length > 1025 || !command.every((word) => typeof word === 'string' && !word.includes('\0'))) {
    fail('command', 'must be an array of 1 to 1025 strings: the program and its arguments (no shell is used)');
  }
  const argv = command as string[];
  if (argv[0] === '') fail('command', 'must name a program first');
  const agent: DeclaredAgent = { name: name as string, command: [...argv], env: {}, line: header };
  if (cwd !== undefined) agent.cwd = checkString(cwd, 'cwd', 'a folder, absolute or relative to the file', fail);
  if (env !== undefined) {
    if (!isPlainObject(env)) fail('env', 'must be a table of strings: env = { KEY = "value" }');
    for (const [key, value] of Object.entries(env as Record<string, unknown>)) {
      if (!ENV_NAME.test(key)) fail('env', `"${key}" is not an environment variable name (letters, digits and _, not starting with a digit)`);
      if (typeof value !== 'string' || value.includes('\0')) fail('env', `"${key}" must be a string`);
      agent.env[key] = value as string;
    }
  }
  if (workspace !== undefined) {
    if (typeof workspace !== 'string' || !NAME.test(workspace)) fail('workspace', `must be a name: ${NAME_HINT}`);
    agent.workspace = workspace as string;
  }
  if (host !== undefined) {
    if (typeof host !== 'string' || !HOST.test(host)) fail('host', 'must be a host named in the config\'s [[hosts]], or user@box');
    agent.host = host as string;
  }
  if (prompt !== undefined) agent.prompt = checkString(prompt, 'prompt', 'the text typed once the agent is first idle', fail);
  if (worktree !== undefined) {
    if (typeof worktree !== 'string' || !BRANCH.test(worktree) || worktree.endsWith('.lock') || worktree.endsWith('/')) {
      fail('worktree', 'must be the name of a branch to make the worktree from (letters, digits and ._/-, not starting with - or containing ..)');
    }
    agent.worktree = worktree as string;
  }
  return agent;
}

function checkString(value: unknown, key: string, what: string, fail: (key: string, problem: string) => never): string {
  if (typeof value !== 'string' || value === '' || value.includes('\0')) fail(key, `must be a non-empty string: ${what}`);
  return value as string;
}

/** Where keys are written, found by reading the text again (smol-toml gives no positions). */
class Lines {
  private readonly lines: string[];
  private readonly headers: number[] = [];

  constructor(text: string) {
    this.lines = text.split('\n');
    this.lines.forEach((line, index) => {
      if (/^\s*\[\[\s*agents\s*\]\]/.test(line)) this.headers.push(index);
    });
  }

  /** The 1-based line of a top-level key or table. */
  top(key: string): number | null {
    const index = this.lines.findIndex((line) => new RegExp(`^\\s*(\\[{1,2}\\s*)?${escape(key)}\\s*(=|\\]|\\.)`).test(line));
    return index < 0 ? null : index + 1;
  }

  agentHeader(index: number): number | null {
    const line = this.headers[index];
    return line === undefined ? null : line + 1;
  }

  /** The line of `key` within the `index`th [[agents]] table, else its header. */
  inAgent(index: number, key: string): number | null {
    const start = this.headers[index];
    if (start === undefined) return null;
    const end = this.headers[index + 1] ?? this.lines.length;
    for (let i = start + 1; i < end; i += 1) {
      if (new RegExp(`^\\s*(\\[\\s*agents\\.)?${escape(key)}\\s*(=|\\])`).test(this.lines[i]!)) return i + 1;
    }
    return start + 1;
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
