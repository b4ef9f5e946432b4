import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { PUSH_LIST, PUSH_REMOVE, PUSH_SET, PUSH_STATES, PUSH_SUBSCRIBE, PUSH_TEST, type PushDevice, type PushSubscriptionJson } from '../../protocol/methods/push.ts';
import { withDaemon } from '../with-daemon.ts';
import { globalsOf } from '../globals.ts';
import { printJson, printTable, printText } from '../output.ts';
import { UsageError } from '../print-error.ts';
import { registerNotifyWebhookCommands } from './notify-webhook.ts';

/** A subscription file is a few hundred bytes; anything much larger is not one. */
const MAX_SUBSCRIPTION_BYTES = 16 * 1024;

/** `corral notify push ...`: the devices the daemon pushes each new inbox item to (docs/web.md, "On your phone"). */
export function registerNotifyCommands(program: Command): void {
  const notify = program.command('notify').description("the daemon's notifications beside its notify command");
  const push = notify.command('push').description('Web Push to your devices: each new inbox item once per device, with answer buttons for safe choices');

  push
    .command('subscribe')
    .description("add a device: its PushSubscription JSON (what the browser's subscription.toJSON() gives), from FILE or - for stdin")
    .argument('<file>', 'the subscription JSON, or - to read it from stdin')
    .option('--states <states>', `which items it receives, comma-separated: ${PUSH_STATES.join(', ')} (default blocked,done,failed)`)
    .option('--label <label>', 'a name for the device in `notify push list`')
    .action(async (file: string, options: { states?: string; label?: string }, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const subscription = readSubscription(file === '-' ? readStdin() : readFileSync(file));
      const states = options.states === undefined ? undefined : parseStates(options.states);
      const { device } = await withDaemon(socket, (client) =>
        client.call(PUSH_SUBSCRIBE, { subscription, ...(states ? { states } : {}), ...(options.label !== undefined ? { label: options.label } : {}) }),
      );
      if (json) return printJson({ device });
      printText(`subscribed ${device.id} (${device.states.join(' and ')}); \`corral notify push test ${device.id}\` sends it a test`);
    });

  push
    .command('set')
    .description('change what a device receives: its states, its workspaces, its quiet hours, its label')
    .argument('<id>', 'the device id, as `notify push list` shows it')
    .option('--receive <states>', `comma-separated: ${PUSH_STATES.join(', ')} (a spent budget always comes)`)
    .option('--workspace <name>', 'only the items of this workspace (repeat for more)', (name: string, names: string[] = []) => [...names, name])
    .option('--all-workspaces', 'the items of every workspace again')
    .option('--quiet <hours>', 'its own quiet hours, HH:MM-HH:MM in local time; off for none; default for [notify] quiet_hours')
    .option('--label <label>', 'a name for the device in `notify push list`')
    .action(async (id: string, options: { receive?: string; workspace?: string[]; allWorkspaces?: boolean; quiet?: string; label?: string }, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      if (options.workspace && options.allWorkspaces) throw new UsageError('--workspace and --all-workspaces say opposite things: pick one');
      if (options.quiet !== undefined && !/^(off|default|\d\d:\d\d-\d\d:\d\d)$/.test(options.quiet)) throw new UsageError(`--quiet takes HH:MM-HH:MM, off or default, not "${options.quiet}"`);
      const change = {
        ...(options.receive !== undefined ? { states: parseStates(options.receive, '--receive') } : {}),
        ...(options.workspace ? { workspaces: options.workspace } : options.allWorkspaces ? { workspaces: [] } : {}),
        ...(options.quiet !== undefined ? { quietHours: options.quiet === 'default' ? null : options.quiet } : {}),
        ...(options.label !== undefined ? { label: options.label } : {}),
      };
      if (Object.keys(change).length === 0) throw new UsageError('say what to change: --receive, --workspace, --all-workspaces, --quiet or --label');
      const { device } = await withDaemon(socket, (client) => client.call(PUSH_SET, { id, ...change }));
      if (json) return printJson({ device });
      printText(`${device.id}: ${describeDevice(device)}`);
    });

  push
    .command('list')
    .description('the devices the daemon pushes to')
    .action(async (_options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const { devices } = await withDaemon(socket, (client) => client.call(PUSH_LIST, {}));
      if (json) return printJson({ devices });
      if (devices.length === 0) return printText('no device subscribed: tap "Notify me on this device" in `corral web`, or `corral notify push subscribe FILE`');
      printTable(
        ['ID', 'LABEL', 'STATES', 'WORKSPACES', 'QUIET', 'SENT', 'LAST', 'ENDPOINT'],
        devices.map((device) => [
          device.id,
          device.label ?? '-',
          device.states.join(','),
          device.workspaces?.length ? device.workspaces.join(',') : 'all',
          device.quietHours ?? 'default',
          String(device.sent),
          device.lastStatus === null ? '-' : String(device.lastStatus),
          device.endpoint,
        ]),
      );
    });

  push
    .command('remove')
    .description('stop pushing to a device')
    .argument('<id>', 'the device id, as `notify push list` shows it')
    .action(async (id: string, _options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const { removed } = await withDaemon(socket, (client) => client.call(PUSH_REMOVE, { id }));
      if (json) return printJson({ removed });
      printText(removed ? `removed ${id}` : `no device ${id}; \`corral notify push list\` names them`);
    });

  push
    .command('test')
    .description('push a test notification to a device (or every one) now, and print what each push service answered')
    .argument('[id]', 'the device id; every device without it')
    .action(async (id: string | undefined, _options, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const { results } = await withDaemon(socket, (client) => client.call(PUSH_TEST, id === undefined ? {} : { id }));
      if (json) return printJson({ results });
      if (results.length === 0) return printText('no device subscribed');
      printTable(['ID', 'STATUS', 'PROBLEM'], results.map((result) => [result.id, result.status === null ? '-' : String(result.status), result.error ?? '-']));
    });

  registerNotifyWebhookCommands(notify);
}

function readStdin(): Buffer {
  return readFileSync(0);
}

/** The JSON of a PushSubscription; the daemon checks its shape and keys. */
function readSubscription(bytes: Buffer): PushSubscriptionJson {
  if (bytes.length > MAX_SUBSCRIPTION_BYTES) throw new UsageError(`a push subscription is a few hundred bytes of JSON, not ${bytes.length}`);
  try {
    const value = JSON.parse(bytes.toString('utf8')) as { endpoint?: unknown; expirationTime?: unknown; keys?: unknown };
    return { endpoint: value.endpoint, ...(value.expirationTime !== undefined ? { expirationTime: value.expirationTime } : {}), keys: value.keys } as PushSubscriptionJson;
  } catch {
    throw new UsageError('the subscription is not JSON: pass what the browser\'s PushSubscription.toJSON() gives ({"endpoint", "keys": {"p256dh", "auth"}})');
  }
}

function parseStates(text: string, option = '--states'): (typeof PUSH_STATES)[number][] {
  const states = text.split(',').map((state) => state.trim());
  for (const state of states) if (!(PUSH_STATES as readonly string[]).includes(state)) throw new UsageError(`${option} takes ${PUSH_STATES.join(', ')}, not "${state}"`);
  return states as (typeof PUSH_STATES)[number][];
}

/** A device's settings in words: `blocked,done of api, quiet 22:00-07:00`. */
function describeDevice(device: PushDevice): string {
  const where = device.workspaces?.length ? ` of ${device.workspaces.join(', ')}` : ' of every workspace';
  const quiet = device.quietHours === null || device.quietHours === undefined ? 'quiet hours of [notify]' : device.quietHours === 'off' ? 'no quiet hours' : `quiet ${device.quietHours}`;
  return `receives ${device.states.join(',')}${where}, ${quiet}`;
}
