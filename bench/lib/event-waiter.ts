// One event awaited at a time on a client's event notifications, timed when it arrives.
import type { DaemonConnection } from '../../src/cli/with-daemon.ts';
import { EVENT } from '../../src/protocol/notifications.ts';
import type { CorralEvent } from '../../src/protocol/methods/events.ts';

/** Resolves with the arrival time of the next event `accept` takes, after `act` has been started. */
export type NextEvent = (accept: (event: CorralEvent) => boolean, act: () => Promise<unknown>) => Promise<number>;

export function eventWaiter(client: DaemonConnection, now: () => number): NextEvent {
  let waiter: { accept: (event: CorralEvent) => boolean; resolve: (at: number) => void } | null = null;
  client.onNotification(EVENT, (event) => {
    const at = now();
    if (waiter?.accept(event as CorralEvent)) {
      const taken = waiter;
      waiter = null;
      taken.resolve(at);
    }
  });
  return (accept, act) =>
    new Promise<number>((resolve, reject) => {
      waiter = { accept, resolve };
      act().catch(reject);
    });
}

export const isBlockedAttention = (event: CorralEvent) => event.kind === 'agent.attention' && (event.data as { state: string }).state === 'blocked';

export const isBackToIdle = (event: CorralEvent) => event.kind === 'agent.stateChanged' && ['idle', 'done'].includes((event.data as { to: string }).to);
