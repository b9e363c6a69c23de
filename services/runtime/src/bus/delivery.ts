import type { Logger } from 'pino';
import type { DeadLetterReason, DeadLetterRecord, TopicValidator } from '@updown/schemas';
import type { Clock } from '../clock';
import type { EventHandler, RetryPolicy } from './bus';
import type { BusMetrics, DeliveryCounts } from './bus-metrics';
import { deadLetterRecord, decodeEvent, describeError } from './codec';
import { retryDelayMs } from './retry';

/**
 * What both adapters do with one message: validate it, run the handler with bounded retries, and
 * dead-letter it when it is invalid or every attempt failed. The adapter commits the offset only
 * when this returns `handled` or `dead_lettered`; `aborted` (the subscription is closing) leaves
 * the message uncommitted so the group receives it again.
 */

export interface RawMessage {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: string | null;
  readonly value: Buffer | string | null;
}

export interface DeliveryDeps<E> {
  readonly group: string;
  readonly validator: TopicValidator<E>;
  readonly handler: EventHandler<E>;
  readonly policy: RetryPolicy;
  /** Aborted when the subscription closes: no new attempt starts after that. */
  readonly signal: AbortSignal;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: BusMetrics;
  writeDeadLetter(record: DeadLetterRecord, key: string | null): Promise<void>;
  /** Runs while waiting between attempts; the Kafka adapter heartbeats here to keep its session. */
  whileWaiting?(): Promise<void>;
}

export type DeliveryOutcome = 'handled' | 'dead_lettered' | 'aborted';

/** Waits `ms` on the clock; resolves false at once if the signal is (or becomes) aborted. */
export function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      cancel();
      resolve(false);
    };
    const cancel = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function deliver<E>(message: RawMessage, deps: DeliveryDeps<E>): Promise<DeliveryOutcome> {
  if (deps.signal.aborted) return 'aborted';
  const decoded = decodeEvent(deps.validator, message.value);
  if (!decoded.ok) return deadLetter(message, deps, 'invalid', decoded.problems.join('; '), 0);
  return deliverEvent(message, decoded.event, deps);
}

/**
 * `deliver` for a message already decoded and found valid: `event` is the group's own copy of
 * it (a handler may change its event; no other group may see that).
 */
export async function deliverEvent<E>(
  message: RawMessage,
  event: E,
  deps: DeliveryDeps<E>,
): Promise<DeliveryOutcome> {
  if (deps.signal.aborted) return 'aborted';
  const counts = countsOf(deps, message.topic);
  for (let attempt = 1; ; attempt++) {
    const startedMs = performance.now();
    try {
      const { topic, partition, offset, key } = message;
      await deps.handler(event, { topic, partition, offset, key, attempt });
      counts.durations.observe((performance.now() - startedMs) / 1000);
      counts.handled++;
      return 'handled';
    } catch (error) {
      counts.durations.observe((performance.now() - startedMs) / 1000);
      // The logger already carries topic and group.
      const context = { partition: message.partition, offset: message.offset, attempt };
      if (attempt >= deps.policy.attemptsMax) {
        deps.logger.warn({ ...context, err: error }, 'event handler failed on its last attempt');
        return deadLetter(message, deps, 'handler_failed', describeError(error), attempt);
      }
      deps.logger.warn({ ...context, err: error }, 'event handler failed; retrying');
      counts.retries++;
      if (!(await pause(deps, retryDelayMs(attempt, deps.policy)))) return 'aborted';
    }
  }
}

/**
 * The counts of a group and topic, kept by the metrics, never by the deps object, which the Kafka
 * adapter makes per message; a process has a few dozen groups and topics.
 */
function countsOf<E>(deps: DeliveryDeps<E>, topic: string): DeliveryCounts {
  return deps.metrics.deliveryCounts(topic, deps.group);
}

async function pause<E>(deps: DeliveryDeps<E>, ms: number): Promise<boolean> {
  const waiting = deps.whileWaiting?.().catch((error: unknown) => {
    deps.logger.debug({ err: error }, 'keep-alive while waiting to retry failed');
  });
  const slept = await sleep(deps.clock, ms, deps.signal);
  await waiting;
  return slept && !deps.signal.aborted;
}

/**
 * Writes the dead letter, retrying with backoff while the dead-letter topic is unreachable: the
 * source offset must not move past a message that is neither handled nor safely set aside.
 */
async function deadLetter<E>(
  message: RawMessage,
  deps: DeliveryDeps<E>,
  reason: DeadLetterReason,
  error: string,
  attempts: number,
): Promise<DeliveryOutcome> {
  const record = deadLetterRecord({
    ...message,
    group: deps.group,
    reason,
    error,
    attempts,
    failedAtMs: deps.clock.nowMs(),
  });
  for (let write = 1; ; write++) {
    try {
      await deps.writeDeadLetter(record, message.key);
      break;
    } catch (writeError) {
      deps.logger.error({ offset: message.offset, err: writeError }, 'writing a dead letter failed');
      if (!(await pause(deps, retryDelayMs(write, deps.policy)))) return 'aborted';
    }
  }
  deps.metrics.deadLetters.inc({ topic: message.topic, group: deps.group, reason });
  deps.metrics.consumed.inc({ topic: message.topic, group: deps.group, outcome: 'dead_lettered' });
  deps.logger.error(
    {
      partition: message.partition,
      offset: message.offset,
      key: message.key,
      reason,
      attempts,
      error,
    },
    'message dead-lettered',
  );
  return 'dead_lettered';
}
