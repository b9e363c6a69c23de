import type { EventOf } from '@updown/schemas';

/**
 * The parts of the bus price-ingest uses, declared here so that any adapter of the runtime's
 * `Bus` (in-memory or Kafka) fits without this package depending on how buses are built.
 */

export const TICKS_TOPIC = 'market.ticks.v1';
export type TickEvent = EventOf<typeof TICKS_TOPIC>;

export interface TickPublisher {
  publish(topic: typeof TICKS_TOPIC, key: string, event: TickEvent): Promise<void>;
}

export interface TickSubscription {
  close(): Promise<void>;
}

export interface TickSubscriber {
  subscribe(
    topic: typeof TICKS_TOPIC,
    group: string,
    handler: (event: TickEvent) => Promise<void>,
    options?: { fromBeginning?: boolean },
  ): Promise<TickSubscription>;
}
