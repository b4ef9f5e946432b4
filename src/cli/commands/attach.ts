import type { Command } from 'commander';
import { CorralError } from '../../protocol/errors.ts';
import { attachTerminal, type AttachOutcome } from '../attach/attach-session.ts';
import { DEFAULT_DETACH_KEY, parseDetachKey } from '../attach/detach-key.ts';
import { ClientError, withDaemon } from '../with-daemon.ts';
import { globalsOf } from '../globals.ts';
import { oneTarget } from '../targets.ts';
import { UsageError } from '../print-error.ts';

function labelOf(pane: AttachOutcome['pane']): string {
  return pane.name ? `${pane.id} (${pane.name})` : pane.id;
}

/**
 * Ends an attach command: a detach prints where it left and exits 0; the pane's end is `pane_exited`
 * (exit 3) and the daemon's going `connection_closed` (exit 1), printed in the CLI's one error place.
 */
export function finishAttach(outcome: AttachOutcome, print: (line: string) => void): void {
  const label = labelOf(outcome.pane);
  switch (outcome.reason) {
    case 'detached':
      return print(`[detached from ${label}; it keeps running]`);
    case 'exited': {
      const how = outcome.signal !== null ? `on signal ${outcome.signal}` : `with code ${outcome.exitCode ?? 'none'}`;
      throw new CorralError('pane_exited', `pane ${label} exited ${how} while attached`, { id: outcome.pane.id });
    }
    case 'removed':
      throw new CorralError('pane_exited', `pane ${label} was removed while attached`, { id: outcome.pane.id });
    case 'connection_closed':
      throw new ClientError('connection_closed', `lost the daemon while attached to ${label}: ${outcome.message}`);
  }
}

export function registerAttachCommand(program: Command): void {
  program
    .command('attach')
    .description('put this terminal onto a pane (raw mode, output mirrored, input forwarded); the detach key leaves it running')
    .argument('<target>', 'pane id or name, or @WORKSPACE or a pattern that names exactly one pane')
    .option('--detach-key <key>', 'the control key that detaches: C-\\, C-], C-a ...', DEFAULT_DETACH_KEY)
    .action(async (target: string, options: { detachKey: string }, cmd: Command) => {
      const { socket } = globalsOf(cmd);
      const detachKey = parseDetachKey(options.detachKey);
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        throw new UsageError('attach needs a terminal; in scripts use `corral pane read` and `corral pane send` (or `agent read`, `agent prompt`)');
      }
      const outcome = await withDaemon(socket, async (client) =>
        attachTerminal(client, { target: await oneTarget(client, target, 'attach'), detachKey, stdin: process.stdin, stdout: process.stdout }),
      );
      finishAttach(outcome, (line) => process.stderr.write(`${line}\n`));
    });
}
