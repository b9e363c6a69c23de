import { pino } from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import type { TopicValidator } from '@updown/schemas';
import { systemClock } from '../clock';
import { busMetrics } from './bus-metrics';
import { deliver, type DeliveryDeps, type RawMessage } from './delivery';

const anything: TopicValidator<unknown> = {
  check: (_value): _value is unknown => true,
  problems: () => [],
  assert: () => undefined,
};

describe('deliver', () => {
  it('hands prom-client the same label objects for every message of a group and topic, however the deps arrive', async () => {
    const metrics = busMetrics(new Registry());
    const inc = vi.spyOn(metrics.consumed, 'inc');
    const observe = vi.spyOn(metrics.handlerDuration, 'observe');
    const base: DeliveryDeps<unknown> = {
      group: 'labels-group',
      validator: anything,
      handler: async () => undefined,
      policy: { attemptsMax: 1, retryDelayMsMin: 1, retryDelayMsMax: 1 },
      signal: new AbortController().signal,
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      metrics,
      writeDeadLetter: async () => undefined,
    };
    const message = (offset: number, topic = 'labels.a.v1'): RawMessage => ({
      topic,
      partition: 0,
      offset: String(offset),
      key: null,
      value: '{}',
    });
    // The Kafka adapter spreads its deps into a new object for every message.
    for (let offset = 0; offset < 3; offset++) {
      expect(await deliver(message(offset), { ...base })).toBe('handled');
    }
    expect(await deliver(message(3, 'labels.b.v1'), { ...base })).toBe('handled');

    const handled = inc.mock.calls.map(([labels]) => labels);
    expect(handled[0]).toEqual({ topic: 'labels.a.v1', group: 'labels-group', outcome: 'handled' });
    expect(handled[1]).toBe(handled[0]);
    expect(handled[2]).toBe(handled[0]);
    expect(handled[3]).toEqual({ topic: 'labels.b.v1', group: 'labels-group', outcome: 'handled' });
    const timed = observe.mock.calls.map(([labels]) => labels);
    expect(timed[0]).toEqual({ topic: 'labels.a.v1', group: 'labels-group' });
    expect(timed[2]).toBe(timed[0]);
  });
});
