import type { Command } from 'commander';
import { INBOX_ACK, INBOX_LIST } from '../../protocol/methods/inbox.ts';
import { withDaemon } from '../with-daemon.ts';
import { globalsOf } from '../globals.ts';
import { printJson, printTable, printText } from '../output.ts';
import { UsageError } from '../print-error.ts';

/** `corral inbox` lists what asks for attention; `corral inbox ack ID...|--all` clears it. */
export function registerInboxCommands(program: Command): void {
  const inbox = program
    .command('inbox')
    .description('the attention inbox: each agent that became blocked or done, until acknowledged (focus or answer the pane, or `inbox ack`)')
    .action(async (_options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const { items } = await withDaemon(socket, (client) => client.call(INBOX_LIST, {}));
      if (json) return printJson({ items });
      if (items.length === 0) return printText('nothing asks for attention');
      printTable(
        ['ID', 'PANE', 'AGENT', 'STATE', 'SINCE', 'MESSAGE'],
        items.map((item) => [
          String(item.id),
          item.pane.name ? `${item.pane.id} (${item.pane.name})` : item.pane.id,
          item.agent ?? '-',
          item.state,
          new Date(item.ts).toTimeString().slice(0, 8),
          `${item.message}${item.title ? ` - ${item.title}` : ''}`,
        ]),
      );
    });

  inbox
    .command('ack')
    .description('acknowledge inbox items by id, or every one with --all')
    .argument('[ids...]', 'item ids, as `corral inbox` lists them')
    .option('--all', 'acknowledge every item')
    .action(async (ids: string[], options: { all?: boolean }, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      if ((ids.length > 0) === (options.all === true)) throw new UsageError('name item ids, or give --all (not both)');
      const numbers = ids.map((id) => {
        if (!/^\d+$/.test(id) || !Number.isSafeInteger(Number(id)) || Number(id) < 1) throw new UsageError(`an inbox item id is a whole number above zero, not "${id}"`);
        return Number(id);
      });
      const { acknowledged } = await withDaemon(socket, (client) => client.call(INBOX_ACK, options.all ? { all: true } : { ids: numbers }));
      if (json) return printJson({ acknowledged });
      const missing = numbers.filter((id) => !acknowledged.includes(id));
      printText(`acknowledged ${acknowledged.length} item${acknowledged.length === 1 ? '' : 's'}${missing.length > 0 ? ` (not in the inbox: ${missing.join(', ')})` : ''}`);
    });
}
