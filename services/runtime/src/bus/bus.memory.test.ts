import { describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createTopicEvent } from '@updown/schemas';
import { contractTopics, describeBusContract, type ContractTopics } from './bus.contract';
import { createBus } from './create-bus';
import { BusCapacityExceeded } from './errors';
import { MemoryBus } from './memory-bus';
import { deferred, metricValue, waitFor } from './testing/wait-for';

const silent = pino({ level: 'silent' });
const topics = contractTopics('memory');

describeBusContract('bus contract: in-memory adapter', {
  prefix: 'memory',
  topics,
  async makeHarness(retry) {
    const registry = new Registry();
    const bus = new MemoryBus({ topics, logger: silent, registry, retry });
    return {
      bus,
      registry,
      injectRaw: (topic, key, value) => bus.publishRaw(topic, key, value),
      async deadLetters(topic, countMin) {
        await waitFor(() => bus.readDeadLetters(topic).length >= countMin, {
          what: `${countMin} dead letters`,
        });
        return bus.readDeadLetters(topic);
      },
      close: () => bus.close(),
    };
  },
});

describe('createBus', () => {
  it('returns the in-memory bus when BUS=memory', async () => {
    const bus = await createBus(
      { BUS: 'memory', KAFKA_BROKERS: [], KAFKA_CLIENT_ID: 'unused' },
      { logger: silent, registry: new Registry() },
    );
    expect(bus).toBeInstanceOf(MemoryBus);
    await bus.close();
  });
});

describe('in-memory bus bounds', () => {
  const topic = 'memory.order.v1';
  const event = (seq: number) => createTopicEvent(topics, topic, { seq }, { producer: 'test' });
  const open = (options: { retainedPerPartitionMax: number }) =>
    new MemoryBus<ContractTopics>({
      topics,
      logger: silent,
      registry: new Registry(),
      partitions: 1,
      ...options,
    });

  it('makes room in a full partition by dropping what every group has consumed', async () => {
    const bus = open({ retainedPerPartitionMax: 3 });
    const seen: number[] = [];
    await bus.subscribe(topic, 'g', async (e) => void seen.push(e.payload.seq));
    for (let seq = 0; seq < 50; seq++) {
      await bus.publish(topic, 'k', event(seq));
      await waitFor(() => seen.length === seq + 1);
    }
    expect(seen).toEqual([...Array(50).keys()]);
    await bus.close();
  });

  it('refuses a publish rather than drop a message a group has not consumed', async () => {
    const bus = open({ retainedPerPartitionMax: 2 });
    const release = deferred();
    await bus.subscribe(topic, 'slow', () => release.promise);
    await bus.publish(topic, 'k', event(1));
    await bus.publish(topic, 'k', event(2));
    await expect(bus.publish(topic, 'k', event(3))).rejects.toBeInstanceOf(BusCapacityExceeded);
    release.resolve();
    await waitFor(async () => {
      try {
        await bus.publish(topic, 'k', event(3));
        return true;
      } catch {
        return false;
      }
    });
    await bus.close();
  });

  it('keeps consumed messages for a group that subscribes later, up to the bound', async () => {
    const bus = open({ retainedPerPartitionMax: 5 });
    const early: number[] = [];
    await bus.subscribe(topic, 'early', async (e) => void early.push(e.payload.seq));
    for (const seq of [1, 2, 3]) await bus.publish(topic, 'k', event(seq));
    await waitFor(() => early.length === 3);
    const late: number[] = [];
    await bus.subscribe(topic, 'late', async (e) => void late.push(e.payload.seq));
    await waitFor(() => late.length === 3);
    expect(late).toEqual([1, 2, 3]);
    await bus.close();
  });

  it('drops the oldest message of a full topic that no group subscribes to, and counts it', async () => {
    const registry = new Registry();
    const bus = new MemoryBus<ContractTopics>({
      topics,
      logger: silent,
      registry,
      partitions: 1,
      retainedPerPartitionMax: 2,
    });
    for (const seq of [1, 2, 3]) await bus.publish(topic, 'k', event(seq));
    expect(await metricValue(registry, 'updown_bus_retention_dropped_total', { topic })).toBe(1);
    const seen: number[] = [];
    await bus.subscribe(topic, 'late', async (e) => void seen.push(e.payload.seq));
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual([2, 3]);
    await bus.close();
  });

  it('reports consumer lag per group', async () => {
    const registry = new Registry();
    const bus = new MemoryBus<ContractTopics>({ topics, logger: silent, registry, partitions: 2 });
    const release = deferred();
    await bus.subscribe(topic, 'stuck', () => release.promise);
    for (const seq of [1, 2, 3]) await bus.publish(topic, `k${seq}`, event(seq));
    expect(await metricValue(registry, 'updown_bus_consumer_lag', { topic, group: 'stuck' })).toBe(3);
    release.resolve();
    await waitFor(
      async () => (await metricValue(registry, 'updown_bus_consumer_lag', { topic, group: 'stuck' })) === 0,
    );
    await bus.close();
  });
});

describe('in-memory bus delivery', () => {
  const topic = 'memory.groups.v1';

  it('validates a message once, however many groups it reaches, and parses it for each', async () => {
    const bus = new MemoryBus<ContractTopics>({ topics, logger: silent, registry: new Registry() });
    const validator = (bus as unknown as { validators: Record<string, { check: unknown }> }).validators[
      topic
    ]!;
    const check = vi.spyOn(validator as { check: (value: unknown) => boolean }, 'check');
    const events: unknown[] = [];
    for (const group of ['a', 'b', 'c']) await bus.subscribe(topic, group, async (e) => void events.push(e));
    await bus.publish(topic, 'key', createTopicEvent(topics, topic, { seq: 1 }, { producer: 'test' }));
    await waitFor(() => events.length === 3, { what: 'three groups to get the event' });
    expect(check).toHaveBeenCalledTimes(1);
    expect(new Set(events).size).toBe(3);
    await bus.close();
  });
});
