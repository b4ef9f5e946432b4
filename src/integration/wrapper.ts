import { basename } from 'node:path';
import { shellQuote, type Launch } from './launch.ts';

/**
 * A launch seen through one wrapper (`env`, `sh -c`, `node`): the launch inside it, and how to put a
 * changed inner launch back in its place. Found from the command line alone: nothing is run to find
 * out, and a wrapper used in any way not read here exactly (an unknown option, shell syntax beyond
 * plain words) is not unwrapped, so its launch is left as it was.
 */
export interface Wrapped {
  inner: Launch;
  wrap(inner: Launch): Launch;
}

/** At most this many wrappers are looked through (`env X=1 sh -c 'exec node cli.js'` is three). */
export const MAX_WRAPPERS = 4;

/**
 * The launch inside up to MAX_WRAPPERS wrappers: the first that `found` accepts (null when none is),
 * or with no `found` the innermost; and how to put a changed one back in its place.
 */
export function throughWrappers(launch: Launch, found?: (launch: Launch) => boolean): Wrapped | null {
  const wrappers: Wrapped[] = [];
  let inner = launch;
  for (;;) {
    if (found?.(inner)) break;
    const wrapped = wrappers.length < MAX_WRAPPERS ? unwrapLaunch(inner) : null;
    if (wrapped === null) {
      if (found) return null;
      break;
    }
    wrappers.push(wrapped);
    inner = wrapped.inner;
  }
  return { inner, wrap: (changed) => wrappers.reduceRight((outer, wrapper) => wrapper.wrap(outer), changed) };
}

export function unwrapLaunch(launch: Launch): Wrapped | null {
  const name = runtimeName(launch.command);
  if (name === 'env') return throughEnv(launch);
  if (SHELLS.has(name)) return throughShell(launch);
  if (name === 'node' || name === 'nodejs') return throughNode(launch);
  return null;
}

/**
 * A shell given its script on the command line (`sh -c`, `bash -lc`): arguments added after the script
 * would be its $0 and $1, never the program's.
 */
export function runsInlineScript(launch: Launch): boolean {
  return SHELLS.has(runtimeName(launch.command)) && /^-[a-z]*c[a-z]*$/.test(launch.args[0] ?? '');
}

/** `node20`, `python3.12`: a version suffix does not change what a program is. */
function runtimeName(command: string): string {
  const name = basename(command);
  const match = /^(nodejs|node|bash|dash|zsh|ksh|sh)[\d.]*$/.exec(name);
  return match ? match[1]! : name;
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

/** Variables the inner launch has that the outer one did not give it, as `KEY=value` words. */
function addedAssignments(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.entries(after)
    .filter(([key, value]) => before[key] !== value)
    .map(([key, value]) => `${key}=${value}`);
}

/** `env [-i] [-u NAME] [-C DIR] [NAME=VALUE]... COMMAND ARGS`: what the hooks add goes in as NAME=VALUE before COMMAND. */
function throughEnv(launch: Launch): Wrapped | null {
  const { args } = launch;
  let ignoreEnvironment = false;
  const unset = new Set<string>();
  const assigned: Record<string, string> = {};
  let i = 0;
  for (; i < args.length; i += 1) {
    const arg = args[i]!;
    const assignment = ASSIGNMENT.exec(arg);
    if (arg === '--') {
      i += 1;
      break;
    }
    if (arg === '-i' || arg === '-' || arg === '--ignore-environment') ignoreEnvironment = true;
    else if (arg === '-u' || arg === '--unset') unset.add(args[++i] ?? '');
    else if (arg.startsWith('--unset=')) unset.add(arg.slice('--unset='.length));
    else if (/^-u./.test(arg)) unset.add(arg.slice(2));
    else if (arg === '-C' || arg === '--chdir') i += 1;
    else if (arg.startsWith('--chdir=') || /^-C./.test(arg)) continue;
    else if (arg.startsWith('-')) return null; // -S splits a string, -0 prints: not read here
    else if (assignment) assigned[assignment[1]!] = arg.slice(assignment[0].length);
    else break;
  }
  if (i >= args.length) return null;
  const base = ignoreEnvironment ? {} : Object.fromEntries(Object.entries(launch.env).filter(([key]) => !unset.has(key)));
  const innerEnv = { ...base, ...assigned };
  return {
    inner: { command: args[i]!, args: args.slice(i + 1), env: innerEnv },
    wrap: (inner) => ({ ...launch, args: [...args.slice(0, i), ...addedAssignments(innerEnv, inner.env), inner.command, ...inner.args] }),
  };
}

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh']);

/**
 * `sh -c 'NAME=VALUE... [exec] COMMAND ARGS' [ARG0 ARGS]`, where the script is plain words only:
 * unquoted letters, digits and `_./:=@%+,-`, single quotes, and double quotes without `$`, backquote,
 * backslash or `!`. Anything a shell would expand, redirect or chain is not unwrapped. What the hooks
 * add goes into the script as NAME=VALUE before the command, so the script's own assignments cannot hide it.
 */
function throughShell(launch: Launch): Wrapped | null {
  const [flag, script, ...rest] = launch.args;
  if (flag !== '-c' || script === undefined) return null;
  const tokens = shellWords(script);
  if (tokens === null) return null;
  let i = 0;
  const assigned: Record<string, string> = {};
  for (; i < tokens.length && ASSIGNMENT.test(tokens[i]!.raw); i += 1) {
    const { value } = tokens[i]!;
    const eq = value.indexOf('=');
    assigned[value.slice(0, eq)] = value.slice(eq + 1);
  }
  const assignments = tokens.slice(0, i).map((token) => token.raw);
  const exec = tokens[i]?.value === 'exec' && tokens[i]!.raw === 'exec';
  if (exec) i += 1;
  const words = tokens.slice(i).map((token) => token.value);
  if (words.length === 0 || words[0]!.startsWith('-')) return null;
  const innerEnv = { ...launch.env, ...assigned };
  return {
    inner: { command: words[0]!, args: words.slice(1), env: innerEnv },
    wrap: (inner) => {
      const added = addedAssignments(innerEnv, inner.env).map((word) => {
        const eq = word.indexOf('=');
        return `${word.slice(0, eq + 1)}${shellQuote(word.slice(eq + 1))}`;
      });
      const line = [...assignments, ...added, ...(exec ? ['exec'] : []), ...[inner.command, ...inner.args].map(shellQuote)].join(' ');
      return { ...launch, args: [flag, line, ...rest] };
    },
  };
}

/** A script's words, each as written and as the shell reads it; null for anything but plain words. */
export function shellWords(script: string): { raw: string; value: string }[] | null {
  const words: { raw: string; value: string }[] = [];
  let i = 0;
  while (i < script.length) {
    if (script[i] === ' ' || script[i] === '\t') {
      i += 1;
      continue;
    }
    const start = i;
    let value = '';
    while (i < script.length && script[i] !== ' ' && script[i] !== '\t') {
      const char = script[i]!;
      if (/[A-Za-z0-9_./:=@%+,-]/.test(char)) {
        value += char;
        i += 1;
      } else if (char === "'" || char === '"') {
        const end = script.indexOf(char, i + 1);
        if (end < 0) return null;
        const quoted = script.slice(i + 1, end);
        if (char === '"' && /[$`\\!]/.test(quoted)) return null;
        value += quoted;
        i = end + 1;
      } else return null;
    }
    words.push({ raw: script.slice(start, i), value });
  }
  return words;
}

/** Options that make node run something other than a script file, or nothing: not unwrapped. */
const NODE_NOT_A_SCRIPT = new Set(['-e', '--eval', '-p', '--print', '-i', '--interactive', '-c', '--check', '-v', '--version', '-h', '--help', '--test', '--run', '-']);
/** Node options whose value is the next argument. */
const NODE_VALUED = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '--env-file', '--env-file-if-exists', '-C', '--conditions', '--inspect-port', '--title', '--input-type']);
/** Node options that take no value; with `--no-*`, `--experimental-*` (but the loader) and any `--name=value`, the only others read. */
const NODE_FLAGS = new Set([
  '--inspect', '--inspect-brk', '--inspect-wait', '--enable-source-maps', '--expose-gc', '--preserve-symlinks', '--preserve-symlinks-main',
  '--trace-warnings', '--trace-deprecation', '--trace-uncaught', '--throw-deprecation', '--pending-deprecation', '--abort-on-uncaught-exception',
  '--frozen-intrinsics', '--use-openssl-ca', '--use-bundled-ca',
]);

/** `node [OPTIONS] SCRIPT ARGS`: the script is the program; what the hooks add to the environment goes to node's, which the script inherits. */
function throughNode(launch: Launch): Wrapped | null {
  const { args } = launch;
  let i = 0;
  for (; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') {
      i += 1;
      break;
    }
    if (!arg.startsWith('-')) break;
    if (NODE_NOT_A_SCRIPT.has(arg) || arg.startsWith('--eval=') || arg.startsWith('--print=')) return null;
    if (NODE_VALUED.has(arg)) i += 1;
    else if (!(arg.includes('=') || NODE_FLAGS.has(arg) || arg.startsWith('--no-') || arg.startsWith('--experimental-'))) return null;
  }
  const script = args[i];
  if (script === undefined || script === '-') return null;
  return {
    inner: { command: script, args: args.slice(i + 1), env: launch.env },
    wrap: (inner) => ({ command: launch.command, args: [...args.slice(0, i), inner.command, ...inner.args], env: inner.env }),
  };
}
