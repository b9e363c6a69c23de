import { Kafka, logLevel, Partitioners, type Admin, type Message, type Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import {
  compileTopicValidators,
  deadLetterTopic,
  type DeadLetterRecord,
  type TopicEvent,
  type TopicOf,
  type TopicRegistry,
  type TopicValidators,
} from '@updown/schemas';
import { systemClock, type Clock } from '../clock';
import {
  DEFAULT_RETRY_POLICY,
  type Bus,
  type BusMessage,
  type EventHandler,
  type RetryPolicy,
  type SubscribeOptions,
  type Subscription,
} from './bus';
import { busMetrics, type BusMetrics } from './bus-metrics';
import { encodeEvent } from './codec';
import type { DeliveryDeps } from './delivery';
import { BusClosed, BusUnavailable } from './errors';
import { pinoLogCreator } from './kafka-logger';
import { KafkaSubscription } from './kafka-subscription';
import { resolveRetryPolicy } from './retry';
import { checkEvent, checkSubscription } from './validate';

/**
 * The Kafka adapter (kafkajs). Messages are keyed (kafkajs's default murmur2 partitioner, as other
 * Kafka clients expect), consumed with `eachMessage` and `autoCommit: false`, and each offset is
 * committed explicitly after its handler succeeded or the message was dead-lettered. Neither
 * transactions nor the idempotent producer are used; one request in flight per connection keeps
 * a retried batch from overtaking the next, so per-key order survives producer retries.
 */

export interface KafkaConsumerTuning {
  readonly sessionTimeoutMs?: number;
  readonly heartbeatIntervalMs?: number;
  readonly rebalanceTimeoutMs?: number;
  /** Longest a fetch waits on the broker for new messages; bounds how long `close` waits too. */
  readonly fetchWaitMsMax?: number;
  /** Partitions one member processes at the same time (messages of one partition stay sequential). */
  readonly partitionsConcurrentMax?: number;
}

export interface KafkaBusOptions<R extends TopicRegistry> {
  readonly topics: R;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly clock?: Clock;
  readonly retry?: Partial<RetryPolicy>;
  /** Create missing topics (and their dead-letter topics) on start; existing ones are left as they are. */
  readonly createTopics?: boolean;
  readonly partitions?: number;
  readonly replicationFactor?: number;
  readonly retentionMs?: number;
  readonly connectionTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  readonly consumer?: KafkaConsumerTuning;
}

export const KAFKA_BUS_DEFAULTS = Object.freeze({
  partitions: 8,
  replicationFactor: 1,
  retentionMs: 7 * 24 * 60 * 60 * 1000,
  connectionTimeoutMs: 3_000,
  requestTimeoutMs: 30_000,
  sessionTimeoutMs: 30_000,
  heartbeatIntervalMs: 3_000,
  rebalanceTimeoutMs: 60_000,
  fetchWaitMsMax: 500,
  partitionsConcurrentMax: 4,
});

/** Connects, creates missing topics, and returns a bus ready to publish and subscribe. */
export async function createKafkaBus<R extends TopicRegistry>(
  options: KafkaBusOptions<R>,
): Promise<KafkaBus<R>> {
  const bus = new KafkaBus(options);
  await bus.start();
  return bus;
}

export class KafkaBus<R extends TopicRegistry> implements Bus<R> {
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private readonly validators: TopicValidators<R>;
  private readonly metrics: BusMetrics;
  private readonly retry: RetryPolicy;
  private readonly subscriptions = new Set<KafkaSubscription>();
  private closed = false;

  constructor(private readonly options: KafkaBusOptions<R>) {
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: [...options.brokers],
      connectionTimeout: options.connectionTimeoutMs ?? KAFKA_BUS_DEFAULTS.connectionTimeoutMs,
      requestTimeout: options.requestTimeoutMs ?? KAFKA_BUS_DEFAULTS.requestTimeoutMs,
      retry: { initialRetryTime: 100, maxRetryTime: 2_000, retries: 5 },
      logLevel: logLevel.WARN,
      logCreator: pinoLogCreator(options.logger.child({ component: 'kafkajs' })),
    });
    this.producer = this.kafka.producer({
      allowAutoTopicCreation: false,
      idempotent: false,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    this.validators = compileTopicValidators(options.topics);
    this.metrics = busMetrics(options.registry);
    this.retry = resolveRetryPolicy(DEFAULT_RETRY_POLICY, options.retry);
  }

  async start(): Promise<void> {
    try {
      if (this.options.createTopics ?? true) await this.ensureTopics();
      await this.producer.connect();
    } catch (error) {
      throw new BusUnavailable(`Could not connect to Kafka at ${this.options.brokers.join(',')}`, {
        cause: error,
      });
    }
  }

  async publish<T extends TopicOf<R>>(topic: T, key: string, event: TopicEvent<R, T>): Promise<void> {
    await this.publishMany([{ topic, key, event } as BusMessage<R>]);
  }

  async publishMany(messages: readonly BusMessage<R>[]): Promise<void> {
    if (this.closed) throw new BusClosed();
    for (const m of messages) checkEvent(this.options.topics, this.validators, m.topic, m.key, m.event);
    if (messages.length === 0) return;
    const byTopic = new Map<string, Message[]>();
    for (const m of messages) {
      let list = byTopic.get(m.topic);
      if (!list) byTopic.set(m.topic, (list = []));
      list.push({
        key: m.key,
        value: encodeEvent(m.event),
        headers: { 'event-type': m.event.type, 'event-id': m.event.id },
      });
    }
    const topicMessages = [...byTopic].map(([topic, list]) => ({ topic, messages: list }));
    try {
      // kafkajs keeps the given order within each partition of one request.
      await this.producer.sendBatch({ acks: -1, topicMessages });
    } catch (error) {
      const what = messages.length === 1 ? 'a message' : `${messages.length} messages`;
      throw new BusUnavailable(
        `Kafka did not accept ${what} for ${[...byTopic.keys()].join(', ')}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    for (const { topic, messages: list } of topicMessages) this.metrics.published.inc({ topic }, list.length);
  }

  async subscribe<T extends TopicOf<R>>(
    topic: T,
    group: string,
    handler: EventHandler<TopicEvent<R, T>>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    if (this.closed) throw new BusClosed();
    checkSubscription(this.options.topics, topic, group);
    const tuning = { ...KAFKA_BUS_DEFAULTS, ...this.options.consumer };
    const makeConsumer = () =>
      this.kafka.consumer({
        groupId: group,
        sessionTimeout: tuning.sessionTimeoutMs,
        heartbeatInterval: tuning.heartbeatIntervalMs,
        rebalanceTimeout: tuning.rebalanceTimeoutMs,
        maxWaitTimeInMs: tuning.fetchWaitMsMax,
        allowAutoTopicCreation: false,
      });
    const controller = new AbortController();
    const deps: DeliveryDeps<unknown> = {
      group,
      validator: this.validators[topic] as DeliveryDeps<unknown>['validator'],
      handler: handler as EventHandler<unknown>,
      policy: resolveRetryPolicy(this.retry, options.retry),
      signal: controller.signal,
      clock: this.options.clock ?? systemClock,
      logger: this.options.logger.child({ topic, group }),
      metrics: this.metrics,
      writeDeadLetter: (record: DeadLetterRecord, key: string | null) =>
        this.send(deadLetterTopic(topic), key, JSON.stringify(record), {}),
    };
    const subscription = new KafkaSubscription(
      topic,
      group,
      makeConsumer,
      controller,
      deps,
      {
        fromBeginning: options.fromBeginning ?? true,
        partitionsConcurrentMax: tuning.partitionsConcurrentMax,
      },
      (s) => this.subscriptions.delete(s),
    );
    this.subscriptions.add(subscription);
    try {
      await subscription.start();
    } catch (error) {
      await subscription.close();
      throw new BusUnavailable(`Could not join consumer group ${group} on ${topic}`, { cause: error });
    }
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.producer.disconnect();
  }

  private async send(
    topic: string,
    key: string | null,
    value: string,
    headers: Record<string, string>,
  ): Promise<void> {
    try {
      await this.producer.send({ topic, acks: -1, messages: [{ key, value, headers }] });
    } catch (error) {
      throw new BusUnavailable(`Kafka did not accept a message for ${topic}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /** Idempotent: only topics missing from the cluster are created, and a creation race is harmless. */
  private async ensureTopics(): Promise<void> {
    const admin: Admin = this.kafka.admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      const wanted = Object.keys(this.options.topics).flatMap((topic) => [topic, deadLetterTopic(topic)]);
      const missing = wanted.filter((topic) => !existing.has(topic));
      if (missing.length === 0) return;
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({
          topic,
          numPartitions: this.options.partitions ?? KAFKA_BUS_DEFAULTS.partitions,
          replicationFactor: this.options.replicationFactor ?? KAFKA_BUS_DEFAULTS.replicationFactor,
          configEntries: [
            {
              name: 'retention.ms',
              value: String(this.options.retentionMs ?? KAFKA_BUS_DEFAULTS.retentionMs),
            },
          ],
        })),
      });
      this.options.logger.info({ topics: missing }, 'created Kafka topics');
    } finally {
      await admin.disconnect();
    }
  }
}
