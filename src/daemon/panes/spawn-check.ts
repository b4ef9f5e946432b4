import { accessSync, closeSync, constants, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join, resolve } from 'node:path';
import { CorralError } from '../../protocol/errors.ts';

/** exec's bound on one argument or environment string, NUL included (MAX_ARG_STRLEN: 32 pages). */
export const MAX_EXEC_STRING_BYTES = 32 * 4096;

/**
 * Checks before a spawn what exec would only report as a child exiting (1, 126 or 127) after the
 * pane was made: a missing working folder, a command that is not found or not executable, a `#!`
 * interpreter that is missing (also `#!/usr/bin/env NAME` with NAME not on PATH), and an argument
 * list or environment too long for exec (E2BIG).
 */
export function checkSpawnable(command: string, cwd: string, env: Record<string, string>, args: readonly string[] = []): void {
  checkExecSize(command, args, env);
  let cwdStat;
  try {
    cwdStat = statSync(cwd);
  } catch {
    throw new CorralError('spawn_failed', `working folder ${cwd} does not exist; pass an existing --cwd`, { cwd });
  }
  if (!cwdStat.isDirectory()) {
    throw new CorralError('spawn_failed', `working folder ${cwd} is not a directory; pass an existing --cwd`, { cwd });
  }
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : resolve(cwd, command)]
    : (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(resolve(cwd, dir), command));
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
    } catch {
      continue; // not this one
    }
    return checkInterpreter(command, candidate, cwd, env);
  }
  const where = command.includes('/') ? 'or not executable' : "in the pane's PATH";
  throw new CorralError('spawn_failed', `command "${command}" not found ${where}; check the name or pass --env PATH=...`, {
    command,
  });
}

/** A script's `#!` line must name an interpreter that exists, or exec fails with ENOENT. */
function checkInterpreter(command: string, path: string, cwd: string, env: Record<string, string>): void {
  const head = Buffer.alloc(256);
  let length = 0;
  try {
    const fd = openSync(path, 'r');
    try {
      length = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return; // unreadable but executable: exec decides
  }
  const text = head.subarray(0, length).toString('latin1');
  if (!text.startsWith('#!')) return;
  const [interpreter, argument] = text.slice(2).split('\n')[0]!.trim().split(/[ \t]+/);
  if (!interpreter) throw failed(command, `its #! line names no interpreter`);
  if (!isExecutable(resolve(cwd, interpreter))) {
    throw failed(command, `its #! line names the interpreter ${interpreter}, which does not exist or is not executable`);
  }
  if (basename(interpreter) === 'env' && argument !== undefined && !argument.startsWith('-') && !argument.includes('=')) {
    const found = argument.includes('/')
      ? isExecutable(resolve(cwd, argument))
      : (env.PATH ?? '').split(delimiter).filter(Boolean).some((dir) => isExecutable(join(resolve(cwd, dir), argument)));
    if (!found) throw failed(command, `its #! line runs ${argument} through env, and ${argument} is not in the pane's PATH`);
  }
}

/** exec refuses a string over MAX_EXEC_STRING_BYTES, and argv plus environment over ARG_MAX (E2BIG). */
function checkExecSize(command: string, args: readonly string[], env: Record<string, string>): void {
  let total = 0;
  const strings = [command, ...args, ...Object.entries({ ...process.env, ...env }).map(([key, value]) => `${key}=${value}`)];
  for (const [index, text] of strings.entries()) {
    const bytes = Buffer.byteLength(text) + 1;
    if (bytes > MAX_EXEC_STRING_BYTES) {
      const what = index === 0 ? 'the command' : index <= args.length ? `args[${index - 1}]` : 'an environment variable';
      throw new CorralError('spawn_failed', `cannot start "${command}": ${what} is ${bytes} bytes, over exec's ${MAX_EXEC_STRING_BYTES} per string (argument list too long)`, {
        command,
        limit: MAX_EXEC_STRING_BYTES,
      });
    }
    total += bytes + 8; // and its pointer
  }
  const limit = argMax();
  if (total > limit) {
    throw new CorralError('spawn_failed', `cannot start "${command}": its arguments and environment take ${total} bytes, over exec's ${limit} (argument list too long)`, {
      command,
      limit,
    });
  }
}

/** ARG_MAX as Linux computes it: a quarter of the stack limit, at least 128 KiB, at most 6 MiB. */
function argMax(): number {
  let stack = 8 << 20;
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max stack size'));
    const soft = line?.slice('Max stack size'.length).trim().split(/\s+/)[0];
    stack = soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft) || stack;
  } catch {
    // keep the usual 8 MiB
  }
  return Math.min(Math.max(stack / 4, 128 << 10), 6 << 20);
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function failed(command: string, why: string): CorralError {
  return new CorralError('spawn_failed', `cannot start "${command}": ${why}`, { command });
}
