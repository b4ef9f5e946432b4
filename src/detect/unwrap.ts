/** Runtimes and shims whose first operand is the program that really runs. */
const INTERPRETERS = new Set(['node', 'nodejs', 'bun', 'deno', 'python', 'python3', 'python2', 'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx']);
/** Flags after which the program is inline code or a module name: identity gives up. */
const EVAL_FLAGS = new Set(['-e', '-c', '-m', '-p', '--eval', '--print', '-ic', '-lc', '-cl', '-ec']);
/** Interpreter flags that take the next argument as their value. */
const VALUED_FLAGS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '--env-file', '-W', '-X', '--conditions', '-C', '--config', '--cwd', '--inspect-port', '--title', '-O', '-o']);
const MAX_UNWRAP = 6;

/** What a process runs, seen through wrappers: a path (or name) to match, or an npm package name. */
export type ProgramRef = { kind: 'path'; value: string } | { kind: 'package'; value: string };

export function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

/** `python3.12` is python3, `node20` is node: version suffixes do not change what a runtime does. */
function runtimeName(path: string): string {
  const name = basename(path).toLowerCase();
  const match = /^(python[23]?|nodejs|node|bun|deno|bash|zsh|dash|ksh|sh)[\d.]*$/.exec(name);
  return match ? match[1]! : name;
}

/**
 * Every program a command line names, outermost first: `env FOO=1 node --import x cli.js` gives
 * `env`, `node`, `cli.js`. Stops (returns what it has) at an eval flag such as `-c` or `-e`.
 */
export function unwrapArgv(argv: readonly string[]): ProgramRef[] {
  const refs: ProgramRef[] = [];
  // A process that rewrote its title (npx shows `npm exec x`) leaves one argument holding spaces.
  let args = argv.length === 1 && argv[0]!.includes(' ') ? argv[0]!.split(/\s+/) : argv.slice();
  for (let depth = 0; depth < MAX_UNWRAP && args.length > 0; depth++) {
    const head = args[0]!;
    refs.push({ kind: 'path', value: head });
    const name = runtimeName(head);
    let rest: string[] | null;
    if (name === 'env') rest = afterEnv(args.slice(1));
    else if (INTERPRETERS.has(name)) rest = afterInterpreter(name, args.slice(1));
    else if (PACKAGE_RUNNERS.has(name) || name === 'pnpm' || name === 'npm') {
      const pkg = packageRunTarget(name, args.slice(1));
      if (pkg) refs.push({ kind: 'package', value: pkg }, { kind: 'path', value: pkg.replace(/^@[^/]+\//, '') });
      break;
    } else break;
    if (!rest) break;
    args = rest;
  }
  return refs;
}

function afterEnv(args: string[]): string[] | null {
  let i = 0;
  while (i < args.length) {
    const arg = args[i]!;
    if (arg === '--') return args.slice(i + 1);
    if (arg === '-u' || arg === '--unset' || arg === '-C' || arg === '--chdir') i += 2;
    else if (arg.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) i += 1;
    else return args.slice(i);
  }
  return null;
}

function afterInterpreter(name: string, args: string[]): string[] | null {
  let i = 0;
  // `deno run x.ts`, `bun run x.ts`: the subcommand is not the program.
  if ((name === 'deno' || name === 'bun') && (args[0] === 'run' || args[0] === 'x')) i = 1;
  while (i < args.length) {
    const arg = args[i]!;
    if (arg === '--') return args.slice(i + 1);
    if (EVAL_FLAGS.has(arg) || arg.startsWith('--eval=') || arg.startsWith('--print=')) return null;
    if (!arg.startsWith('-') || arg === '-') return arg === '-' ? null : args.slice(i);
    i += VALUED_FLAGS.has(arg) ? 2 : 1;
  }
  return null;
}

/** `npx -y @openai/codex@1.2`, `pnpm dlx x`, `pnpm exec x`, `npm exec -- x`: the package, without its version. */
function packageRunTarget(name: string, args: string[]): string | null {
  let i = 0;
  if (name === 'pnpm' || name === 'npm') {
    if (args[0] !== 'dlx' && args[0] !== 'exec' && args[0] !== 'x') return null;
    i = 1;
  }
  while (i < args.length) {
    const arg = args[i]!;
    if (arg === '--') {
      i++;
      continue;
    }
    if (arg === '-p' || arg === '--package') return stripVersion(args[i + 1] ?? '') || null;
    if (arg.startsWith('--package=')) return stripVersion(arg.slice('--package='.length)) || null;
    if (arg === '-c' || arg === '--call') return null;
    if (arg.startsWith('-')) {
      i++;
      continue;
    }
    return stripVersion(arg);
  }
  return null;
}

function stripVersion(spec: string): string {
  const at = spec.indexOf('@', 1);
  return at < 0 ? spec : spec.slice(0, at);
}
