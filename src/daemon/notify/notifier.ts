import type { InboxItem } from '../../protocol/methods/inbox.ts';
import { DisposableStore, type Disposable } from '../../base/disposable.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { Logger } from '../logger.ts';
import { fillArgv } from './argv-template.ts';
import { CommandRunner } from './run-command.ts';

interface NotifierOptions {
  command: readonly string[];
  cooldownMs: number;
  timeoutMs: number;
  log: Logger;
  now?: () => number;
}

/** Where attention comes from: the inbox tells each item once, when it enters (never again, across restarts too). */
interface AttentionSource {
  onAdded(listener: (item: InboxItem) => void): Disposable;
}

/**
 * Runs the configured notify command for each item entering the attention inbox, at most once per
 * (pane, state) per cooldown, so that an agent redrawing through blocked or done never notifies twice.
 */
export class Notifier implements Disposable {
  private readonly lastRun = new Map<string, number>();
  private readonly runner: CommandRunner;
  private readonly subscriptions = new DisposableStore();
  private readonly now: () => number;

  constructor(
    attention: AttentionSource,
    hub: EventHub,
    private readonly options: NotifierOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.runner = new CommandRunner(options.timeoutMs, options.log);
    this.subscriptions.add(attention.onAdded((item) => this.attention(item)));
    this.subscriptions.add(
      hub.onPublish(({ event }) => {
        // A removed pane's cooldowns go with it, so the map stays as small as the pane list.
        if (event.kind === 'pane.removed' && event.pane) this.forget(event.pane.id);
      }),
    );
  }

  dispose(): void {
    this.subscriptions.dispose();
    this.runner.dispose();
  }

  private attention(item: InboxItem): void {
    // A budget pages the person once it is spent; at 80% its inbox item is enough (docs/usage.md).
    if (item.state === 'budget' && item.budget?.percent !== '100') return;
    const { pane } = item;
    const key = `${pane.id}\0${item.state}`;
    const now = this.now();
    const last = this.lastRun.get(key);
    if (last !== undefined && now - last < this.options.cooldownMs) {
      this.options.log.debug({ pane: pane.id, state: item.state, sinceMs: now - last }, 'notification in cooldown');
      return;
    }
    this.lastRun.set(key, now);
    const argv = fillArgv(this.options.command, {
      agent: item.agent ?? 'agent',
      name: pane.name ?? pane.id,
      id: pane.id,
      state: item.state,
      message: item.message,
      title: item.title ?? '',
    });
    this.options.log.info({ pane: pane.id, state: item.state, item: item.id, program: argv[0] }, 'notifying');
    this.runner.run(argv);
  }

  private forget(paneId: string): void {
    for (const key of this.lastRun.keys()) if (key.startsWith(`${paneId}\0`)) this.lastRun.delete(key);
  }
}
