import { pino } from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import type { TopicValidator } from '@updown/schemas';
import { systemClock } from '../clock';
import { busMetrics } from './bus-metrics';
import { deliver, type DeliveryDeps, type RawMessage } from './delivery';
import { metricValue } from './testing/wait-for';

const anything: TopicValidator<unknown> = {
  check: (_value): _value is unknown => true,
  problems: () => [],
  assert: () => undefined,
};

describe('deliver', () => {
  it('counts by group and topic in plain numbers, however the deps arrive, and prom-client reads them when scraped', async () => {
    const registry = new Registry();
    const metrics = busMetrics(registry);
    const inc = vi.spyOn(metrics.consumed, 'inc');
    let failures = 1;
    const base: DeliveryDeps<unknown> = {
      group: 'labels-group',
      validator: anything,
      handler: async () => {
        if (failures-- > 0) throw new Error('once');
      },
      policy: { attemptsMax: 2, retryDelayMsMin: 1, retryDelayMsMax: 1 },
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
    const counts = metrics.deliveryCounts('labels.a.v1', 'labels-group');
    // The Kafka adapter spreads its deps into a new object for every message.
    for (let offset = 0; offset < 3; offset++) {
      expect(await deliver(message(offset), { ...base })).toBe('handled');
    }
    expect(await deliver(message(3, 'labels.b.v1'), { ...base })).toBe('handled');
    expect(metrics.deliveryCounts('labels.a.v1', 'labels-group')).toBe(counts);
    expect([counts.handled, counts.retries, counts.durations.count]).toEqual([3, 1, 4]);
    // Nothing reached prom-client per message.
    expect(inc).not.toHaveBeenCalled();

    const a = { topic: 'labels.a.v1', group: 'labels-group' };
    const b = { topic: 'labels.b.v1', group: 'labels-group' };
    expect(await metricValue(registry, 'updown_bus_consumed_total', { ...a, outcome: 'handled' })).toBe(3);
    expect(await metricValue(registry, 'updown_bus_consumed_total', { ...b, outcome: 'handled' })).toBe(1);
    expect(await metricValue(registry, 'updown_bus_handler_retries_total', a)).toBe(1);
    // A second scrape reports the same totals: each count is added to prom-client once.
    expect(await metricValue(registry, 'updown_bus_consumed_total', { ...a, outcome: 'handled' })).toBe(3);
    const text = await registry.metrics();
    expect(text).toContain(
      'updown_bus_handler_duration_seconds_count{topic="labels.a.v1",group="labels-group"} 4',
    );
    expect(text).toContain(
      'updown_bus_handler_duration_seconds_bucket{le="+Inf",topic="labels.b.v1",group="labels-group"} 1',
    );
    expect(text).toMatch(/# TYPE updown_bus_handler_duration_seconds histogram/);
  });
});
