import type { EventTopics, TopicEvent, TopicOf, TopicRegistry } from '@updown/schemas';

/**
 * The event bus port. Two adapters implement it (in-memory and Kafka) and pass one contract suite
 * (`bus.contract.ts`). Delivery is at-least-once, in order per key, per consumer group; every
 * consumer must therefore be idempotent (the event `id` is the natural idempotency key).
 */

export interface MessageMeta {
  readonly topic: string;
  readonly partition: number;
  /** Position in the partition, as a decimal string (Kafka offsets are 64-bit). */
  readonly offset: string;
  readonly key: string | null;
  /** 1 on first delivery, then 2, 3, ... while the handler keeps failing. */
  readonly attempt: number;
}

export type EventHandler<E> = (event: E, meta: MessageMeta) => Promise<void>;

export interface RetryPolicy {
  /** Handler attempts per message before it is dead-lettered; at least 1. */
  readonly attemptsMax: number;
  readonly retryDelayMsMin: number;
  readonly retryDelayMsMax: number;
}

export interface SubscribeOptions {
  /** Overrides the bus's retry policy for this subscription. */
  readonly retry?: Partial<RetryPolicy>;
  /**
   * Where a group with no committed offset starts: at the oldest retained message (default) or
   * only at messages published from now on.
   */
  readonly fromBeginning?: boolean;
}

export interface Subscription {
  readonly topic: string;
  readonly group: string;
  /** Partitions this member currently owns (empty until the group has assigned it some). */
  assignment(): readonly number[];
  /** Leaves the group: waits for the handler in flight, commits nothing further, stops. */
  close(): Promise<void>;
}

/** One message of `publishMany`. */
export interface BusMessage<R extends TopicRegistry = EventTopics, T extends TopicOf<R> = TopicOf<R>> {
  readonly topic: T;
  readonly key: string;
  readonly event: TopicEvent<R, T>;
}

export interface Bus<R extends TopicRegistry = EventTopics> {
  /** Validates the event against the topic's schema (throws `InvalidEvent`), then appends it. */
  publish<T extends TopicOf<R>>(topic: T, key: string, event: TopicEvent<R, T>): Promise<void>;
  /**
   * Validates every message first (one invalid message refuses all of them, appending nothing),
   * then appends them in the order given, so the messages of one key keep that order: one produce
   * request on Kafka instead of one per message. When it throws `BusUnavailable`, any of them
   * may have been appended (at-least-once: publish them all again).
   */
  publishMany(messages: readonly BusMessage<R>[]): Promise<void>;
  subscribe<T extends TopicOf<R>>(
    topic: T,
    group: string,
    handler: EventHandler<TopicEvent<R, T>>,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  /** Closes every subscription (each waits for its handler in flight), then the connections. */
  close(): Promise<void>;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  attemptsMax: 5,
  retryDelayMsMin: 100,
  retryDelayMsMax: 5_000,
});

/** Longest consumer group name accepted; Kafka allows more, but a name this long is a mistake. */
export const GROUP_NAME_LENGTH_MAX = 200;
/** Longest partition key accepted; keys are pair codes and ids. */
export const KEY_LENGTH_MAX = 500;
