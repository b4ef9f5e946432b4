import type { EventFilter } from '../../protocol/methods/events.ts';
import type { Disposable } from '../../base/disposable.ts';
import type { Connection } from '../rpc/connection.ts';
import type { EventHub } from './event-hub.ts';
import { Subscriber, type SubscriberLimits } from './subscriber.ts';

/** At most one stream per connection: notifications carry no subscription id. */
export class Subscriptions implements Disposable {
  private readonly byConnection = new Map<Connection, Subscriber>();
  private readonly publishing: Disposable;

  constructor(
    private readonly hub: EventHub,
    private readonly limits: SubscriberLimits,
  ) {
    this.publishing = hub.onPublish(() => {
      for (const subscriber of this.byConnection.values()) subscriber.wake();
    });
  }

  get size(): number {
    return this.byConnection.size;
  }

  /** Streams events after `since` to the connection, replacing a stream it already had. */
  subscribe(connection: Connection, filter: EventFilter, since: number): Subscriber {
    this.byConnection.get(connection)?.dispose();
    const subscriber = new Subscriber(this.hub, connection, filter, since, this.limits, (ended) => {
      if (this.byConnection.get(connection) === ended) this.byConnection.delete(connection);
    });
    this.byConnection.set(connection, subscriber);
    return subscriber;
  }

  unsubscribe(connection: Connection): boolean {
    const subscriber = this.byConnection.get(connection);
    subscriber?.dispose();
    return subscriber !== undefined;
  }

  dispose(): void {
    this.publishing.dispose();
    for (const subscriber of [...this.byConnection.values()]) subscriber.dispose();
  }
}
