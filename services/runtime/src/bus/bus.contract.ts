import { afterEach, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import type { Registry } from 'prom-client';
import {
  createTopicEvent,
  defineTopic,
  type DeadLetterRecord,
  type TopicDefinition,
  type TopicEvent,
} from '@updown/schemas';
import type { Bus, EventHandler, MessageMeta, RetryPolicy } from './bus';
import { BusClosed, InvalidEvent, UnknownTopic } from './errors';
import { deferred, metricValue, waitFor } from './testing/wait-for';

/**
 * The contract every bus adapter passes. Each case gets a fresh bus from the adapter's harness
 * and a topic of its own, so the cases also hold on a broker shared by the whole file.
 */

export const ContractPayload = Type.Object({ seq: Type.Integer({ minimum: 0 }) });
export type ContractTopics = Record<string, TopicDefinition<typeof ContractPayload>>;
type ContractEvent = TopicEvent<ContractTopics, string>;

const CASES = [
  'order',
  'batch',
  'mixed',
  'groups',
  'isolation',
  'split',
  'retry',
  'resume',
  'poison',
  'exhaust',
  'invalid',
  'close',
] as const;
type Case = (typeof CASES)[number];

/** One topic per contract case, named `<prefix>.<case>.v1`. */
export function contractTopics(prefix: string): ContractTopics {
  return Object.fromEntries(
    CASES.map((name) => [
      `${prefix}.${name}.v1`,
      defineTopic({
        type: `contract.${name}`,
        version: 1,
        payload: ContractPayload,
        key: 'seq',
        title: `Contract${name[0]!.toUpperCase()}${name.slice(1)}`,
        description: `Bus contract test topic (${name})`,
      }),
    ]),
  );
}

export interface BusHarness {
  readonly bus: Bus<ContractTopics>;
  readonly registry: Registry;
  /** Writes a value straight to the topic, bypassing validation, as a faulty producer would. */
  injectRaw(topic: string, key: string, value: string): Promise<void>;
  /** The topic's dead letters, waiting until there are at least `countMin`. */
  deadLetters(topic: string, countMin: number): Promise<DeadLetterRecord[]>;
  close(): Promise<void>;
}

export interface BusContractOptions {
  readonly prefix: string;
  readonly topics: ContractTopics;
  makeHarness(retry: Partial<RetryPolicy>): Promise<BusHarness>;
  /** How long a published message may take to reach a handler (a broker needs longer than memory). */
  readonly deliveryTimeoutMs?: number;
}

const FAST_RETRY: Partial<RetryPolicy> = { attemptsMax: 5, retryDelayMsMin: 5, retryDelayMsMax: 20 };

export function describeBusContract(name: string, options: BusContractOptions): void {
  describe(name, () => {
    const timeoutMs = options.deliveryTimeoutMs ?? 2_000;
    const topic = (c: Case) => `${options.prefix}.${c}.v1`;
    const event = (c: Case, seq: number): ContractEvent =>
      createTopicEvent(options.topics, topic(c), { seq }, { producer: 'contract-test' });
    let harness: BusHarness | undefined;
    const open = async (retry: Partial<RetryPolicy> = FAST_RETRY) =>
      (harness = await options.makeHarness(retry));
    const until = (predicate: () => boolean, what: string) => waitFor(predicate, { timeoutMs, what });

    afterEach(async () => {
      await harness?.close();
      harness = undefined;
    });

    it('delivers the messages of one key in the order they were published', async () => {
      const { bus, registry } = await open();
      const byKey = new Map<string, number[]>();
      await bus.subscribe(topic('order'), 'order', async (e, meta) => {
        byKey.set(meta.key!, [...(byKey.get(meta.key!) ?? []), e.payload.seq]);
      });
      for (let seq = 0; seq < 30; seq++)
        await bus.publish(topic('order'), `key-${seq % 3}`, event('order', seq));
      await until(() => [...byKey.values()].flat().length === 30, '30 messages');
      for (let k = 0; k < 3; k++) {
        expect(byKey.get(`key-${k}`)).toEqual([...Array(10).keys()].map((i) => i * 3 + k));
      }
      expect(await metricValue(registry, 'updown_bus_published_total', { topic: topic('order') })).toBe(30);
      expect(
        await metricValue(registry, 'updown_bus_consumed_total', {
          topic: topic('order'),
          outcome: 'handled',
        }),
      ).toBe(30);
    });

    it('publishes many messages in one call, in order per key; one invalid message refuses them all', async () => {
      const { bus, registry } = await open();
      const byKey = new Map<string, number[]>();
      await bus.subscribe(topic('batch'), 'batch', async (e, meta) => {
        byKey.set(meta.key!, [...(byKey.get(meta.key!) ?? []), e.payload.seq]);
      });
      const bad = { ...event('batch', 99), payload: { seq: 'one' } } as unknown as ContractEvent;
      const refused = await bus
        .publishMany([
          { topic: topic('batch'), key: 'key-0', event: event('batch', 100) },
          { topic: topic('batch'), key: 'key-0', event: bad },
        ])
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(InvalidEvent);
      const other: number[] = [];
      await bus.subscribe(topic('mixed'), 'mixed', async (e) => void other.push(e.payload.seq));
      // Two topics in one call, as a relay pass carries them.
      await bus.publishMany(
        Array.from({ length: 30 }, (_, seq) => [
          { topic: topic('batch'), key: `key-${seq % 3}`, event: event('batch', seq) },
          ...(seq % 10 === 0 ? [{ topic: topic('mixed'), key: 'other', event: event('mixed', seq) }] : []),
        ]).flat(),
      );
      await until(() => [...byKey.values()].flat().length === 30 && other.length === 3, '33 messages');
      expect(other).toEqual([0, 10, 20]);
      for (let k = 0; k < 3; k++) {
        expect(byKey.get(`key-${k}`)).toEqual([...Array(10).keys()].map((i) => i * 3 + k));
      }
      // Nothing of the refused call was appended: its valid first message is not among them.
      expect([...byKey.values()].flat()).not.toContain(100);
      expect(await metricValue(registry, 'updown_bus_published_total', { topic: topic('batch') })).toBe(30);
    });

    it('delivers every message to each consumer group, whatever another group has consumed', async () => {
      const { bus } = await open();
      const audit: number[] = [];
      await bus.subscribe(topic('groups'), 'audit', async (e) => void audit.push(e.payload.seq));
      for (let seq = 0; seq < 10; seq++)
        await bus.publish(topic('groups'), `key-${seq % 5}`, event('groups', seq));
      await until(() => audit.length === 10, 'the first group to get 10');
      // The second group joins once the first has consumed everything: its offsets are its own.
      // Joining afterwards also keeps two fetches of one record apart, which mokapi 0.52 cannot
      // serve at the same time (it shares one reader per stored record between fetches).
      const billing: number[] = [];
      await bus.subscribe(topic('groups'), 'billing', async (e) => void billing.push(e.payload.seq));
      await until(() => billing.length === 10, 'the second group to get 10');
      expect(audit.sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
      expect(billing.sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
    });

    it("gives each group its own copy of an event: one group's handler changing it changes nothing for another", async () => {
      const { bus } = await open();
      const changed = deferred<void>();
      const seen: Record<string, number[]> = { first: [], second: [] };
      await bus.subscribe(topic('isolation'), 'first', async (e) => {
        seen.first!.push(e.payload.seq);
        (e.payload as { seq: number }).seq = 999;
        changed.resolve();
      });
      await bus.subscribe(topic('isolation'), 'second', async (e) => {
        // Reads the event only once the first group has changed its own.
        await changed.promise;
        seen.second!.push(e.payload.seq);
      });
      await bus.publish(topic('isolation'), 'key', event('isolation', 7));
      await until(() => seen.second!.length === 1, 'the second group to get the event');
      expect(seen).toEqual({ first: [7], second: [7] });
    });

    it('shares partitions between the members of one group, without duplicates', async () => {
      const { bus } = await open();
      const received: { member: string; seq: number; partition: number }[] = [];
      const handler =
        (member: string): EventHandler<ContractEvent> =>
        async (e, meta) =>
          void received.push({ member, seq: e.payload.seq, partition: meta.partition });
      const a = await bus.subscribe(topic('split'), 'split', handler('a'));
      const b = await bus.subscribe(topic('split'), 'split', handler('b'));
      await until(() => {
        const [pa, pb] = [a.assignment(), b.assignment()];
        return pa.length > 0 && pb.length > 0 && pa.every((p) => !pb.includes(p));
      }, 'both members to own disjoint partitions');
      for (let seq = 0; seq < 40; seq++)
        await bus.publish(topic('split'), `key-${seq % 16}`, event('split', seq));
      await until(() => new Set(received.map((r) => r.seq)).size === 40, 'all 40 messages');
      expect(received).toHaveLength(40);
      expect(new Set(received.map((r) => r.member))).toEqual(new Set(['a', 'b']));
      for (const r of received) expect((r.member === 'a' ? a : b).assignment()).toContain(r.partition);
    });

    it('redelivers a message whose handler threw, holding back the later messages of its key', async () => {
      const { bus, registry } = await open();
      const calls: string[] = [];
      await bus.subscribe(topic('retry'), 'retry', async (e, meta: MessageMeta) => {
        calls.push(`${e.payload.seq}@${meta.attempt}`);
        if (e.payload.seq === 1 && meta.attempt === 1) throw new Error('transient failure');
      });
      for (const seq of [1, 2, 3]) await bus.publish(topic('retry'), 'same-key', event('retry', seq));
      await until(() => calls.includes('3@1'), 'the last message');
      expect(calls).toEqual(['1@1', '1@2', '2@1', '3@1']);
      expect(await metricValue(registry, 'updown_bus_handler_retries_total', { topic: topic('retry') })).toBe(
        1,
      );
      expect(await metricValue(registry, 'updown_bus_dead_letters_total', { topic: topic('retry') })).toBe(0);
      // Every attempt is timed, the failed one too, under the subscription's topic and group.
      expect(await handlerAttemptsTimed(registry, topic('retry'), 'retry')).toBe(4);
    });

    it('commits offsets only after success: a restarted member resumes at the message that never succeeded', async () => {
      const { bus } = await open();
      const first: string[] = [];
      const stubborn = { retry: { attemptsMax: 1_000, retryDelayMsMin: 10, retryDelayMsMax: 10 } };
      const before = await bus.subscribe(
        topic('resume'),
        'resume',
        async (e, meta) => {
          first.push(`${e.payload.seq}@${meta.attempt}`);
          if (e.payload.seq === 3) throw new Error('not yet');
        },
        stubborn,
      );
      for (const seq of [1, 2, 3, 4]) await bus.publish(topic('resume'), 'same-key', event('resume', seq));
      await until(() => first.includes('3@2'), 'the third message to fail twice');
      await before.close();
      expect(first.filter((call) => !call.startsWith('3@'))).toEqual(['1@1', '2@1']);

      const after: number[] = [];
      await bus.subscribe(topic('resume'), 'resume', async (e) => void after.push(e.payload.seq));
      await until(() => after.includes(4), 'the restarted member to reach the fourth message');
      expect(after).toEqual([3, 4]);
    });

    it('dead-letters a message that is not a valid event, counts it, and moves on', async () => {
      const { bus, registry, injectRaw, deadLetters } = await open();
      const handled: number[] = [];
      await bus.subscribe(topic('poison'), 'poison', async (e) => void handled.push(e.payload.seq));
      await injectRaw(topic('poison'), 'same-key', 'this is not json');
      await injectRaw(topic('poison'), 'same-key', JSON.stringify({ hello: 'world' }));
      await bus.publish(topic('poison'), 'same-key', event('poison', 1));
      await until(() => handled.includes(1), 'the valid message after the poison');
      expect(handled).toEqual([1]);

      const letters = await deadLetters(topic('poison'), 2);
      expect(letters.map((l) => [l.reason, l.value, l.key, l.group, l.sourceTopic, l.attempts])).toEqual([
        ['invalid', 'this is not json', 'same-key', 'poison', topic('poison'), 0],
        ['invalid', '{"hello":"world"}', 'same-key', 'poison', topic('poison'), 0],
      ]);
      expect(letters[1]!.error).toMatch(/\/id/);
      expect(
        await metricValue(registry, 'updown_bus_dead_letters_total', {
          topic: topic('poison'),
          group: 'poison',
          reason: 'invalid',
        }),
      ).toBe(2);
    });

    it('dead-letters a message whose handler failed on every attempt, then moves on', async () => {
      const { bus, registry, deadLetters } = await open({
        attemptsMax: 3,
        retryDelayMsMin: 5,
        retryDelayMsMax: 10,
      });
      const calls: string[] = [];
      await bus.subscribe(topic('exhaust'), 'exhaust', async (e, meta) => {
        calls.push(`${e.payload.seq}@${meta.attempt}`);
        if (e.payload.seq === 1) throw new Error('always broken');
      });
      for (const seq of [1, 2]) await bus.publish(topic('exhaust'), 'same-key', event('exhaust', seq));
      await until(() => calls.includes('2@1'), 'the message after the failing one');
      expect(calls).toEqual(['1@1', '1@2', '1@3', '2@1']);
      const [letter] = await deadLetters(topic('exhaust'), 1);
      expect(letter).toMatchObject({
        reason: 'handler_failed',
        attempts: 3,
        group: 'exhaust',
        key: 'same-key',
      });
      expect(letter!.error).toContain('always broken');
      expect(JSON.parse(letter!.value)).toMatchObject({ payload: { seq: 1 } });
      expect(
        await metricValue(registry, 'updown_bus_dead_letters_total', {
          topic: topic('exhaust'),
          reason: 'handler_failed',
        }),
      ).toBe(1);
    });

    it('refuses to publish an invalid event or to an unknown topic, with typed errors', async () => {
      const { bus, registry } = await open();
      const handled: number[] = [];
      await bus.subscribe(topic('invalid'), 'invalid', async (e) => void handled.push(e.payload.seq));
      const bad = { ...event('invalid', 1), payload: { seq: 'one' } } as unknown as ContractEvent;
      const error = await bus.publish(topic('invalid'), 'k', bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidEvent);
      expect((error as InvalidEvent).problems.join()).toContain('/payload/seq');
      await expect(bus.publish('no.such.topic.v1', 'k', event('invalid', 1))).rejects.toBeInstanceOf(
        UnknownTopic,
      );
      await expect(bus.subscribe('no.such.topic.v1', 'g', async () => undefined)).rejects.toBeInstanceOf(
        UnknownTopic,
      );

      await bus.publish(topic('invalid'), 'k', event('invalid', 2));
      await until(() => handled.length === 1, 'the valid message');
      expect(handled).toEqual([2]);
      expect(await metricValue(registry, 'updown_bus_published_total', { topic: topic('invalid') })).toBe(1);
    });

    it('on close, waits for the handler in flight and then stops delivering', async () => {
      const { bus } = await open();
      const entered = deferred();
      const release = deferred();
      const handled: number[] = [];
      await bus.subscribe(topic('close'), 'close', async (e) => {
        handled.push(e.payload.seq);
        if (e.payload.seq === 1) {
          entered.resolve();
          await release.promise;
        }
      });
      for (const seq of [1, 2]) await bus.publish(topic('close'), 'same-key', event('close', seq));
      await entered.promise;
      let closed = false;
      const closing = bus.close().then(() => (closed = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(closed).toBe(false);
      release.resolve();
      await closing;
      expect(handled).toEqual([1]);
      await expect(bus.publish(topic('close'), 'same-key', event('close', 3))).rejects.toBeInstanceOf(
        BusClosed,
      );
    });
  });
}

/** Observations of `updown_bus_handler_duration_seconds` for one topic and group. */
async function handlerAttemptsTimed(registry: Registry, topicName: string, group: string): Promise<number> {
  const metric = registry.getSingleMetric('updown_bus_handler_duration_seconds');
  if (!metric) return 0;
  // A histogram's values carry the series they belong to (`_bucket`, `_sum`, `_count`).
  const values = (await metric.get()).values as {
    metricName?: string;
    labels: Record<string, unknown>;
    value: number;
  }[];
  return values
    .filter(
      (v) =>
        v.metricName === 'updown_bus_handler_duration_seconds_count' &&
        v.labels.topic === topicName &&
        v.labels.group === group,
    )
    .reduce((sum, v) => sum + v.value, 0);
}
