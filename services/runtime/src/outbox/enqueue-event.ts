import type { Transaction } from 'kysely';
import { eventValidators, isTopicName, type EventOf, type TopicName } from '@updown/schemas';
import { KEY_LENGTH_MAX } from '../bus/bus';
import { InvalidEvent, UnknownTopic } from '../bus/errors';
import type { Database } from '../db/schema';
import { insertOutboxRow, insertOutboxRows } from './outbox.repository';

/**
 * Writes an event to the outbox inside the caller's transaction, so it is published if and only if
 * the rows it describes are committed. The event is validated here, at the source: an invalid
 * event is refused (`InvalidEvent`) while the caller can still roll back, instead of blocking the
 * relay later. After the commit, call `OutboxRelay.kick()` to publish without waiting for a poll.
 */
export async function enqueueEvent<T extends TopicName>(
  trx: Transaction<Database>,
  topic: T,
  key: string,
  event: EventOf<T>,
): Promise<number> {
  checkOutboxEvent(topic, key, event);
  return insertOutboxRow(trx, { topic, key, event });
}

/** Most events one `enqueueEvents` call writes; bounds the statement's size. */
export const ENQUEUE_EVENTS_MAX = 10_000;

export interface OutboxEvent<T extends TopicName = TopicName> {
  readonly topic: T;
  readonly key: string;
  readonly event: EventOf<T>;
}

/**
 * `enqueueEvent` for a batch: every event is validated first (one invalid event refuses the whole
 * batch, writing nothing), then all rows go in with one statement, in the order given, so the
 * relay publishes them in that order. Returns the outbox ids in the same order.
 */
export async function enqueueEvents(
  trx: Transaction<Database>,
  rows: readonly OutboxEvent[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  if (rows.length > ENQUEUE_EVENTS_MAX) {
    throw new RangeError(`enqueueEvents takes at most ${ENQUEUE_EVENTS_MAX} events, got ${rows.length}`);
  }
  for (const row of rows) checkOutboxEvent(row.topic, row.key, row.event);
  return insertOutboxRows(trx, rows);
}

function checkOutboxEvent(topic: TopicName, key: string, event: unknown): void {
  if (!isTopicName(topic)) throw new UnknownTopic(topic);
  if (typeof key !== 'string' || key === '' || key.length > KEY_LENGTH_MAX) {
    throw new InvalidEvent(topic, [`key must be a non-empty string of at most ${KEY_LENGTH_MAX} characters`]);
  }
  const problems = eventValidators[topic].problems(event);
  if (problems.length > 0) throw new InvalidEvent(topic, problems);
}
