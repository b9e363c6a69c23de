import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kafka, logLevel } from 'kafkajs';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createEvent } from '@updown/schemas';
import { contractTopics, describeBusContract } from './bus.contract';
import { createBus } from './create-bus';
import { createKafkaBus, KafkaBus } from './kafka-bus';
import { dockerEngineAnswers } from './testing/docker';
import { makeKafkaHarness, mokapiTestDocument, TEST_CONSUMER_TUNING } from './testing/kafka-harness';
import { mokapiIsolation, startMokapi, type MokapiBroker } from './testing/mokapi';

/**
 * The Kafka adapter over the real wire protocol, in two legs that run the same contract:
 * - against mokapi, a Kafka-protocol mock broker configured by the generated AsyncAPI document
 *   (runs wherever Linux network namespaces are available; see testing/mokapi.atMs);
 * - against a real Kafka broker in a container, only when a Docker engine answers.
 * Each leg's name says whether it ran and, if not, why.
 */

const isolation = mokapiIsolation();
const dockerAvailable = await dockerEngineAnswers();

const mokapiLeg = isolation.ok
  ? 'Kafka adapter against mokapi (Kafka wire protocol, loopback only)'
  : `Kafka adapter against mokapi (skipped: ${isolation.reason})`;

(isolation.ok ? describe : describe.skip)(mokapiLeg, () => {
  const topics = contractTopics('mokapi');
  let broker: MokapiBroker | undefined;
  beforeAll(async () => {
    broker = await startMokapi({
      document: (host) => mokapiTestDocument(host, topics),
      logLevel: process.env.UPDOWN_TEST_MOKAPI_OUTPUT ? 'info' : 'warn',
    });
  });
  afterAll(async () => {
    // Set UPDOWN_TEST_MOKAPI_OUTPUT=1 to print the broker's log after the run.
    if (process.env.UPDOWN_TEST_MOKAPI_OUTPUT) console.log(broker?.output());
    await broker?.stop();
  });

  describeBusContract('bus contract', {
    prefix: 'mokapi',
    topics,
    deliveryTimeoutMs: 10_000,
    makeHarness: (retry) => {
      broker!.assertRunning();
      return makeKafkaHarness(broker!.brokers, topics, retry);
    },
  });

  it('publishes Updown events of every topic, which the broker checks against the generated AsyncAPI schemas', async () => {
    // Built by the factory, as services build it: BUS=kafka and Updown's own topic registry.
    const bus = await createBus(
      { BUS: 'kafka', KAFKA_BROKERS: broker!.brokers, KAFKA_CLIENT_ID: 'schema-check' },
      {
        logger: pino({ level: 'silent' }),
        registry: new Registry(),
        kafka: { consumer: TEST_CONSUMER_TUNING },
      },
    );
    expect(bus).toBeInstanceOf(KafkaBus);
    const tick = createEvent(
      'market.ticks.v1',
      { pair: 'EURUSD', price: 1.08123, atMs: 1_767_225_600_000 },
      { producer: 'test' },
    );
    try {
      await bus.publish('market.ticks.v1', 'EURUSD', tick);
      const trade = {
        tradeId: globalThis.crypto.randomUUID(),
        userId: globalThis.crypto.randomUUID(),
        pair: 'EURUSD',
      };
      await bus.publish(
        'trades.opened.v1',
        'EURUSD',
        createEvent(
          'trades.opened.v1',
          {
            ...trade,
            direction: 'DOWN',
            amountCents: 2_500,
            payoutPct: 85,
            entryPrice: 1.08123,
            entryAtMs: 1_767_225_600_000,
            expiryAtMs: 1_767_225_660_000,
            accountType: 'demo',
            openedAtMs: 1_767_225_600_005,
          },
          { producer: 'order' },
        ),
      );
      await bus.publish(
        'trades.settled.v1',
        'EURUSD',
        createEvent(
          'trades.settled.v1',
          {
            ...trade,
            status: 'void',
            exitPrice: null,
            exitAtMs: null,
            pnlCents: 0,
            settledAtMs: 1_767_225_662_000,
            accountType: 'demo',
          },
          { producer: 'settlement' },
        ),
      );
      // The same event with a negative price gets past no one: mokapi checks it against the document.
      const raw = new Kafka({
        clientId: 'raw',
        brokers: broker!.brokers,
        logLevel: logLevel.NOTHING,
        retry: { retries: 0 },
      });
      const producer = raw.producer();
      await producer.connect();
      const invalid = { ...tick, payload: { ...tick.payload, price: -1 } };
      await expect(
        producer.send({
          topic: 'market.ticks.v1',
          messages: [{ key: 'EURUSD', value: JSON.stringify(invalid) }],
        }),
      ).rejects.toThrow(/validation/i);
      await producer.disconnect();
    } finally {
      await bus.close();
    }
  });
  it('creates missing topics and their dead-letter topics on start, and starts again once they exist', async () => {
    const created = { 'mokapi.created.v1': Object.values(topics)[0]! };
    const open = () =>
      createKafkaBus({
        topics: created,
        logger: pino({ level: 'silent' }),
        registry: new Registry(),
        brokers: broker!.brokers,
        clientId: 'topic-check',
        partitions: 3,
      });
    await (await open()).close();
    await (await open()).close();
    const admin = new Kafka({
      clientId: 'admin',
      brokers: broker!.brokers,
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      const { topics: metadata } = await admin.fetchTopicMetadata({
        topics: ['mokapi.created.v1', 'mokapi.created.v1.dlq'],
      });
      expect(metadata.map((t) => [t.name, t.partitions.length]).sort()).toEqual([
        ['mokapi.created.v1', 3],
        ['mokapi.created.v1.dlq', 3],
      ]);
    } finally {
      await admin.disconnect();
    }
  });
});

const realKafkaLeg = dockerAvailable
  ? 'Kafka adapter against real Kafka (testcontainers)'
  : 'Kafka adapter against real Kafka (skipped: no Docker engine)';

(dockerAvailable ? describe : describe.skip)(realKafkaLeg, () => {
  const prefix = `real${Date.now().toString(36)}`;
  const topics = contractTopics(prefix);
  let container:
    { getHost(): string; getMappedPort(port: number): number; stop(): Promise<unknown> } | undefined;
  let brokers: string[] = [];
  beforeAll(async () => {
    // Imported only here, so machines without Docker never load testcontainers.
    const { KafkaContainer } = await import('@testcontainers/kafka');
    container = await new KafkaContainer('confluentinc/cp-kafka:7.9.0')
      .withKraft()
      .withEnvironment({ KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0' })
      .start();
    brokers = [`${container.getHost()}:${container.getMappedPort(9093)}`];
  }, 180_000);
  afterAll(async () => {
    await container?.stop();
  });

  describeBusContract('bus contract', {
    prefix,
    topics,
    deliveryTimeoutMs: 15_000,
    makeHarness: (retry) => makeKafkaHarness(brokers, topics, retry),
  });
});
