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
import { decodeEvent, encodeEvent } from './codec';
import { deliver, deliverEvent, type DeliveryDeps, type DeliveryOutcome } from './delivery';
import { BusCapacityExceeded, BusClosed } from './errors';
import { MemoryMember, type MemoryGroup, type MemoryTopic } from './memory-state';
import { PartitionLog, type StoredMessage } from './partition-log';
import { partitionForKey } from './partitioner';
import { resolveRetryPolicy } from './retry';
import { checkEvent, checkSubscription } from './validate';

/**
 * The in-memory bus: the default in the single process. It keeps Kafka's model so that code
 * written against it behaves the same on Kafka: topics split into key-hashed partitions, one
 * offset per consumer group and partition, each partition delivered to one member of a group at
 * a time, offsets advanced only after the handler succeeded or the message was dead-lettered.
 *
 * Memory is bounded per partition by `retainedPerPartitionMax`. Like a Kafka log, a partition
 * keeps messages after they are consumed, so a group that subscribes later (`fromBeginning`)
 * still reads them. When a partition is full, the messages every group of the topic has consumed
 * are dropped first; if it is still full, `publish` throws `BusCapacityExceeded` rather than drop
 * a message some group has not read. Only a topic no group subscribes to drops its oldest message
 * (counted in `updown_bus_retention_dropped_total`), as Kafka's retention would.
 */

export interface MemoryBusOptions<R extends TopicRegistry> {
  readonly topics: R;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly clock?: Clock;
  readonly retry?: Partial<RetryPolicy>;
  /** Partitions per topic; more allows more members of a group to work in parallel. */
  readonly partitions?: number;
  readonly retainedPerPartitionMax?: number;
}

export const MEMORY_BUS_DEFAULTS = Object.freeze({ partitions: 8, retainedPerPartitionMax: 10_000 });

export class MemoryBus<R extends TopicRegistry> implements Bus<R> {
  private readonly topicStates = new Map<string, MemoryTopic>();
  private readonly validators: TopicValidators<R>;
  private readonly metrics: BusMetrics;
  private readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private readonly partitions: number;
  private readonly retainedPerPartitionMax: number;
  private readonly removeLagSource: () => void;
  private readonly members = new Set<MemoryMember>();
  private closed = false;

  constructor(private readonly options: MemoryBusOptions<R>) {
    this.partitions = options.partitions ?? MEMORY_BUS_DEFAULTS.partitions;
    this.retainedPerPartitionMax =
      options.retainedPerPartitionMax ?? MEMORY_BUS_DEFAULTS.retainedPerPartitionMax;
    if (!Number.isInteger(this.partitions) || this.partitions < 1 || this.partitions > 256) {
      throw new RangeError(`partitions must be an integer from 1 to 256, got ${this.partitions}`);
    }
    if (
      !Number.isInteger(this.retainedPerPartitionMax) ||
      this.retainedPerPartitionMax < 1 ||
      this.retainedPerPartitionMax > 1_000_000
    ) {
      throw new RangeError(`retainedPerPartitionMax must be an integer from 1 to 1000000`);
    }
    this.validators = compileTopicValidators(options.topics);
    this.metrics = busMetrics(options.registry);
    this.clock = options.clock ?? systemClock;
    this.retry = resolveRetryPolicy(DEFAULT_RETRY_POLICY, options.retry);
    this.removeLagSource = this.metrics.addLagSource(() => this.lag());
  }

  async publish<T extends TopicOf<R>>(topic: T, key: string, event: TopicEvent<R, T>): Promise<void> {
    await this.publishMany([{ topic, key, event } as BusMessage<R>]);
  }

  async publishMany(messages: readonly BusMessage<R>[]): Promise<void> {
    if (this.closed) throw new BusClosed();
    for (const m of messages) checkEvent(this.options.topics, this.validators, m.topic, m.key, m.event);
    for (const m of messages) {
      this.append(m.topic, m.key, encodeEvent(m.event));
      this.metrics.publishCounts(m.topic).published++;
    }
  }

  /**
   * Appends a value without validating it, as a misbehaving producer could on a real broker.
   * For tests and tools only; services publish through `publish`.
   */
  async publishRaw(topic: string, key: string | null, value: string): Promise<void> {
    if (this.closed) throw new BusClosed();
    this.append(topic, key, value);
  }

  /** The dead letters of a topic still held in memory, oldest first within each partition. */
  readDeadLetters(topic: string): DeadLetterRecord[] {
    const state = this.topicStates.get(deadLetterTopic(topic));
    if (!state) return [];
    return state.logs.flatMap((log) => log.values().map((value) => JSON.parse(value) as DeadLetterRecord));
  }

  async subscribe<T extends TopicOf<R>>(
    topic: T,
    group: string,
    handler: EventHandler<TopicEvent<R, T>>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    if (this.closed) throw new BusClosed();
    checkSubscription(this.options.topics, topic, group);
    const state = this.topicState(topic);
    const groupState =
      state.groups.get(group) ?? this.createGroup(state, group, options.fromBeginning ?? true);
    const controller = new AbortController();
    const deps: DeliveryDeps<unknown> = {
      group,
      validator: this.validators[topic] as DeliveryDeps<unknown>['validator'],
      handler: handler as EventHandler<unknown>,
      policy: resolveRetryPolicy(this.retry, options.retry),
      clock: this.clock,
      logger: this.options.logger.child({ topic, group }),
      metrics: this.metrics,
      signal: controller.signal,
      writeDeadLetter: async (record: DeadLetterRecord, key: string | null) =>
        this.append(deadLetterTopic(topic), key, JSON.stringify(record)),
    };
    const member = new MemoryMember(groupState, deps, controller, (leaving) => this.leave(leaving));
    this.members.add(member);
    groupState.members.push(member);
    this.rebalance(groupState);
    return member;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.members].map((member) => member.close()));
    this.removeLagSource();
  }

  private topicState(name: string): MemoryTopic {
    let state = this.topicStates.get(name);
    if (!state) {
      state = {
        name,
        logs: Array.from({ length: this.partitions }, (_, partition) => new PartitionLog(name, partition)),
        groups: new Map(),
      };
      this.topicStates.set(name, state);
    }
    return state;
  }

  private createGroup(topic: MemoryTopic, name: string, fromBeginning: boolean): MemoryGroup {
    const group: MemoryGroup = {
      name,
      topic,
      cursors: topic.logs.map((log) => (fromBeginning ? log.startOffset : log.endOffset)),
      members: [],
      owners: topic.logs.map(() => undefined),
      pumping: topic.logs.map(() => false),
      scheduled: topic.logs.map(() => false),
      startPump: topic.logs.map((_, partition) => () => {
        group.scheduled[partition] = false;
        void this.pump(group, partition);
      }),
    };
    topic.groups.set(name, group);
    return group;
  }

  private append(topic: string, key: string | null, value: string): void {
    const state = this.topicState(topic);
    const partition = key === null ? 0 : partitionForKey(key, this.partitions);
    const log = state.logs[partition]!;
    if (log.size >= this.retainedPerPartitionMax) this.releaseConsumed(state, partition);
    if (log.size >= this.retainedPerPartitionMax) {
      if (state.groups.size > 0)
        throw new BusCapacityExceeded(topic, partition, this.retainedPerPartitionMax);
      log.trimTo(log.startOffset + 1);
      this.metrics.retentionDropped.inc({ topic });
    }
    log.append(key, value);
    for (const group of state.groups.values()) this.schedule(group, partition);
  }

  /** Drops the messages of a partition that every group of its topic has consumed. */
  private releaseConsumed(topic: MemoryTopic, partition: number): void {
    if (topic.groups.size === 0) return;
    let lowest = Number.POSITIVE_INFINITY;
    for (const group of topic.groups.values()) lowest = Math.min(lowest, group.cursors[partition]!);
    topic.logs[partition]!.trimTo(lowest);
  }

  private leave(member: MemoryMember): void {
    const group = member.groupState;
    group.members = group.members.filter((m) => m !== member);
    this.members.delete(member);
    this.rebalance(group);
  }

  /** Partitions go round-robin to the members in the order they joined, like Kafka's assignors. */
  private rebalance(group: MemoryGroup): void {
    for (let partition = 0; partition < group.owners.length; partition++) {
      group.owners[partition] =
        group.members.length === 0 ? undefined : group.members[partition % group.members.length];
      this.schedule(group, partition);
    }
  }

  /** Handlers never run inside `publish` or `subscribe`: the pump starts on a later microtask. */
  private schedule(group: MemoryGroup, partition: number): void {
    if (group.pumping[partition] || group.scheduled[partition]) return;
    group.scheduled[partition] = true;
    queueMicrotask(group.startPump[partition]!);
  }

  /** Delivers a partition's messages to its owner one at a time, in offset order. */
  private async pump(group: MemoryGroup, partition: number): Promise<void> {
    if (group.pumping[partition]) return;
    group.pumping[partition] = true;
    try {
      const log = group.topic.logs[partition]!;
      for (;;) {
        const owner = group.owners[partition];
        if (!owner || owner.closed) return;
        const offset = Math.max(group.cursors[partition]!, log.startOffset);
        const message = log.at(offset);
        if (message === undefined) return;
        owner.beginDelivery();
        let outcome: DeliveryOutcome;
        try {
          outcome = await this.deliverStored(message, owner.deps);
        } finally {
          owner.endDelivery();
        }
        if (outcome === 'aborted') continue;
        group.cursors[partition] = offset + 1;
      }
    } catch (error) {
      this.options.logger.error(
        { topic: group.topic.name, group: group.name, partition, err: error },
        'pump failed',
      );
    } finally {
      group.pumping[partition] = false;
    }
  }

  /**
   * Validates a message once, for the first group it reaches, and parses it once per group: each
   * group's handler gets an event of its own, which it may change without another group seeing
   * it (as each consumer of a broker decodes its own). An invalid message goes the usual way.
   */
  private deliverStored(message: StoredMessage, deps: DeliveryDeps<unknown>): Promise<DeliveryOutcome> {
    if (message.problems === null) return deliverEvent(message, JSON.parse(message.value), deps);
    if (message.problems === undefined && !deps.signal.aborted) {
      const decoded = decodeEvent(deps.validator, message.value);
      message.problems = decoded.ok ? null : decoded.problems;
      if (decoded.ok) return deliverEvent(message, decoded.event, deps);
    }
    return deliver(message, deps);
  }

  private *lag(): Iterable<{ topic: string; group: string; lag: number }> {
    for (const topic of this.topicStates.values()) {
      for (const group of topic.groups.values()) {
        let lag = 0;
        topic.logs.forEach(
          (log, partition) => (lag += log.endOffset - Math.max(group.cursors[partition]!, log.startOffset)),
        );
        yield { topic: topic.name, group: group.name, lag };
      }
    }
  }
}
