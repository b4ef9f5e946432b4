import { STATUS_CODES } from 'node:http';
import type { Command } from 'commander';
import { WEBHOOK_TEST } from '../../protocol/methods/webhook.ts';
import { globalsOf } from '../globals.ts';
import { printJson, printText } from '../output.ts';
import { withDaemon } from '../with-daemon.ts';

/** `corral notify webhook test`: one test delivery to `[notify.webhook]`, and what the receiver said (docs/web.md, "A webhook"). */
export function registerNotifyWebhookCommands(notify: Command): void {
  const webhook = notify.command('webhook').description('the JSON post of each new inbox item to [notify.webhook] url');
  webhook
    .command('test')
    .description('post a test delivery (kind "test", signed as every delivery, no answer links) once, and say what the receiver answered; exits 1 with webhook_failed when it did not take it')
    .action(async (_options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const result = await withDaemon(socket, (client) => client.call(WEBHOOK_TEST, {}));
      if (json) return printJson(result);
      const signed = result.signed ? 'signed' : 'unsigned: no secret is set, so the receiver cannot tell it from a forged post';
      printText(`${result.receiver} took the test delivery ${result.delivery}: ${result.status}${STATUS_CODES[result.status] ? ` ${STATUS_CODES[result.status]}` : ''} (${signed})`);
    });
}
