/** `corral report` options, parsed by hand: the hook path loads no argument library. */
export interface ReportArgs {
  state?: string;
  agent?: string;
  source?: string;
  session?: string;
  hook?: string;
  target?: string;
  socket?: string;
  message?: string;
  /** The event's order as the agent's plugin numbered it (OpenCode's); default: the hook's start time. */
  seq?: number;
  strict: boolean;
  /** Codex: the user's own notify program, run after the report with the same payload. */
  chain?: string[];
  /** Words that are not options: Codex's JSON payload is the last of them. */
  positional: string[];
}

const VALUED = new Set(['--state', '--agent', '--source', '--session', '--hook', '--target', '--socket', '--message', '--chain', '--seq']);

export class ArgsError extends Error {}

export function parseReportArgs(argv: readonly string[]): ReportArgs {
  const args: ReportArgs = { strict: false, positional: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i]!;
    if (word === '--') {
      args.positional.push(...argv.slice(i + 1));
      break;
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const name = eq > 0 ? word.slice(0, eq) : word;
    if (name === '--strict') {
      args.strict = true;
      continue;
    }
    if (name === '--json') continue; // a global option; the hook prints nothing anyway
    if (!VALUED.has(name)) {
      if (word.startsWith('--')) throw new ArgsError(`unknown option ${name}`);
      args.positional.push(word);
      continue;
    }
    const value = eq > 0 ? word.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new ArgsError(`${name} needs a value`);
    if (name === '--chain') args.chain = parseChain(value);
    else if (name === '--seq') args.seq = parseSeq(value);
    else args[name.slice(2) as 'state'] = value;
  }
  return args;
}

/** The chained program as a JSON array of strings (the form of Codex's `notify`). */
function parseChain(value: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ArgsError('--chain must be a JSON array of strings');
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((part) => typeof part === 'string')) {
    throw new ArgsError('--chain must be a non-empty JSON array of strings');
  }
  return parsed;
}

function parseSeq(value: string): number {
  const seq = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(seq)) throw new ArgsError('--seq must be a non-negative integer');
  return seq;
}
