import type { Consumer, EachMessagePayload } from 'kafkajs';
import type { Subscription } from './bus';
import { deliver, type DeliveryDeps } from './delivery';
import { retryDelayMs } from './retry';

/**
 * One member of a consumer group on Kafka: a kafkajs consumer running `eachMessage` with
 * `autoCommit: false`. Each message goes through `deliver`; its offset is committed only when it
 * was handled or dead-lettered. A consumer that kafkajs stops for good is replaced, with backoff.
 */

/** Backoff for restarting a consumer that kafkajs gave up on. */
const CONSUMER_RESTART_DELAYS = { retryDelayMsMin: 500, retryDelayMsMax: 30_000 };

export class KafkaSubscription implements Subscription {
  private consumer: Consumer | undefined;
  private assigned: number[] = [];
  private readonly lagByPartition = new Map<number, number>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly removeLagSource: () => void;
  private closing: Promise<void> | undefined;
  private restarting: Promise<void> | undefined;
  private cancelRestart: (() => void) | undefined;
  private crashes = 0;

  constructor(
    readonly topic: string,
    readonly group: string,
    private readonly makeConsumer: () => Consumer,
    private readonly controller: AbortController,
    private readonly deps: DeliveryDeps<unknown>,
    private readonly settings: { fromBeginning: boolean; partitionsConcurrentMax: number },
    private readonly onClosed: (subscription: KafkaSubscription) => void,
  ) {
    this.removeLagSource = deps.metrics.addLagSource(() => [
      { topic, group, lag: [...this.lagByPartition.values()].reduce((a, b) => a + b, 0) },
    ]);
  }

  assignment(): readonly number[] {
    return this.assigned;
  }

  async start(): Promise<void> {
    const consumer = this.makeConsumer();
    this.consumer = consumer;
    const { events } = consumer;
    consumer.on(events.GROUP_JOIN, ({ payload }) => {
      this.crashes = 0;
      this.assigned = [...(payload.memberAssignment[this.topic] ?? [])].sort((a, b) => a - b);
      for (const partition of this.lagByPartition.keys()) {
        if (!this.assigned.includes(partition)) this.lagByPartition.delete(partition);
      }
      this.deps.logger.info({ partitions: this.assigned }, 'joined consumer group');
    });
    // kafkajs reports lag after each batch; it is the only point where it is known without extra requests.
    consumer.on(events.END_BATCH_PROCESS, ({ payload }) => {
      this.lagByPartition.set(payload.partition, Math.max(0, Number(payload.offsetLag)));
    });
    consumer.on(events.CRASH, ({ payload }) => {
      // kafkajs restarts by itself after retriable errors only; after any other (a broker's
      // malformed response, say) the consumer would stay stopped, so it is replaced here.
      if (!payload.restart) this.scheduleRestart(payload.error);
    });
    await consumer.connect();
    await consumer.subscribe({ topic: this.topic, fromBeginning: this.settings.fromBeginning });
    await consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: this.settings.partitionsConcurrentMax,
      eachMessage: (payload) => this.onMessage(consumer, payload),
    });
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.controller.abort();
      this.cancelRestart?.();
      await this.restarting;
      await Promise.allSettled([...this.inFlight]);
      await this.consumer?.disconnect();
      this.removeLagSource();
      this.onClosed(this);
    })();
    return this.closing;
  }

  private scheduleRestart(error: unknown): void {
    if (this.controller.signal.aborted) return;
    this.crashes++;
    const delayMs = retryDelayMs(this.crashes, CONSUMER_RESTART_DELAYS);
    this.deps.logger.error(
      { err: error, crashes: this.crashes, delayMs },
      'Kafka consumer stopped; restarting it',
    );
    this.cancelRestart = this.deps.clock.setTimeout(() => {
      this.cancelRestart = undefined;
      if (this.controller.signal.aborted) return;
      const previous = this.consumer;
      this.restarting = (async () => {
        await previous?.disconnect().catch(() => undefined);
        await this.start();
      })()
        .catch((restartError: unknown) => this.scheduleRestart(restartError))
        .finally(() => (this.restarting = undefined));
    }, delayMs);
  }

  private async onMessage(consumer: Consumer, payload: EachMessagePayload): Promise<void> {
    // Once closing, nothing new is handled; pausing makes kafkajs stop handing over this batch.
    if (this.controller.signal.aborted) {
      payload.pause();
      return;
    }
    const work = this.handle(consumer, payload);
    this.inFlight.add(work);
    try {
      await work;
    } finally {
      this.inFlight.delete(work);
    }
  }

  private async handle(
    consumer: Consumer,
    { topic, partition, message, heartbeat, pause }: EachMessagePayload,
  ) {
    const outcome = await deliver(
      {
        topic,
        partition,
        offset: message.offset,
        key: message.key?.toString('utf8') ?? null,
        value: message.value,
      },
      { ...this.deps, whileWaiting: heartbeat },
    );
    if (outcome === 'aborted') {
      // Not committed: whichever member owns the partition next receives this message again.
      pause();
      return;
    }
    await consumer.commitOffsets([{ topic, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
  }
}
