import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { buildAsyncApiDocument, deadLetterTopic, eventTopics, type DeadLetterRecord } from '@updown/schemas';
import type { RetryPolicy } from '../bus';
import type { BusHarness, ContractTopics } from '../bus.contract';
import { createKafkaBus, type KafkaConsumerTuning } from '../kafka-bus';
import { waitFor } from './wait-for';

/**
 * Consumer settings for tests: quick heartbeats so members notice a rebalance within a fraction of
 * a second, and short fetch waits so `close` returns promptly.
 */
export const TEST_CONSUMER_TUNING: KafkaConsumerTuning = {
  sessionTimeoutMs: 10_000,
  heartbeatIntervalMs: 100,
  rebalanceTimeoutMs: 5_000,
  fetchWaitMsMax: 100,
  partitionsConcurrentMax: 8,
};

// Set UPDOWN_TEST_LOG_LEVEL=debug to see the adapter's and kafkajs's log lines while debugging a test.
const logger = pino({ level: process.env.UPDOWN_TEST_LOG_LEVEL ?? 'silent' });

export async function makeKafkaHarness(
  brokers: string[],
  topics: ContractTopics,
  retry: Partial<RetryPolicy>,
): Promise<BusHarness> {
  const registry = new Registry();
  const bus = await createKafkaBus({
    topics,
    logger,
    registry,
    brokers,
    clientId: 'bus-contract',
    retry,
    consumer: TEST_CONSUMER_TUNING,
  });
  const kafka = new Kafka({ clientId: 'bus-contract-raw', brokers, logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  return {
    bus,
    registry,
    async injectRaw(topic, key, value) {
      await producer.send({ topic, messages: [{ key, value }] });
    },
    deadLetters: (topic, countMin) => readTopic(kafka, deadLetterTopic(topic), countMin),
    async close() {
      await bus.close();
      await producer.disconnect();
    },
  };
}

/** Reads a topic from the beginning with a throwaway group until it has seen `countMin` messages. */
async function readTopic(kafka: Kafka, topic: string, countMin: number): Promise<DeadLetterRecord[]> {
  const consumer = kafka.consumer({
    groupId: `reader-${globalThis.crypto.randomUUID()}`,
    heartbeatInterval: 100,
    maxWaitTimeInMs: 100,
  });
  const records: { partition: number; offset: bigint; record: DeadLetterRecord }[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        records.push({
          partition,
          offset: BigInt(message.offset),
          record: JSON.parse(message.value!.toString('utf8')) as DeadLetterRecord,
        });
      },
    });
    await waitFor(() => records.length >= countMin, {
      timeoutMs: 10_000,
      what: `${countMin} messages on ${topic}`,
    });
  } finally {
    await consumer.disconnect();
  }
  records.sort((a, b) => a.partition - b.partition || Number(a.offset - b.offset));
  return records.map((entry) => entry.record);
}

/**
 * The AsyncAPI document mokapi runs with in tests: the generated document for Updown's topics plus
 * the contract topics, pointed at the test broker. Two test-only changes:
 * - the contract topics take any bytes, because the poison-message cases must get malformed
 *   messages onto the topic, as a faulty producer could on a real broker (mokapi would otherwise
 *   reject them at produce time); their dead-letter topics keep the real schema;
 * - the group coordinator waits 400 ms instead of 3 s for members before it (re)balances a group.
 */
export function mokapiTestDocument(serverHost: string, contract: ContractTopics): object {
  const doc = buildAsyncApiDocument({ ...eventTopics, ...contract }, { serverHost }) as {
    servers: { kafka: Record<string, unknown> };
    components: { messages: Record<string, Record<string, unknown>> };
  };
  doc.servers.kafka.bindings = { kafka: { 'group.initial.rebalance.delay.ms': 400 } };
  for (const definition of Object.values(contract)) {
    const message = doc.components.messages[definition.envelope.title!]!;
    message.contentType = 'application/octet-stream';
    message.payload = { type: 'string' };
  }
  return doc;
}
