import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * Bus metrics, created once per registry and shared by every bus on it (prom-client refuses two
 * metrics with one name in a registry, and tests may open several buses on one registry).
 */
export interface BusMetrics {
  readonly published: Counter<'topic'>;
  readonly consumed: Counter<'topic' | 'group' | 'outcome'>;
  readonly handlerDuration: Histogram<'topic' | 'group'>;
  readonly handlerRetries: Counter<'topic' | 'group'>;
  readonly deadLetters: Counter<'topic' | 'group' | 'reason'>;
  readonly retentionDropped: Counter<'topic'>;
  readonly lag: Gauge<'topic' | 'group'>;
  /** Adds a source the lag gauge reads at scrape time; returns a function that removes it. */
  addLagSource(source: () => Iterable<{ topic: string; group: string; lag: number }>): () => void;
}

const shared = new WeakMap<Registry, BusMetrics>();

export function busMetrics(registry: Registry): BusMetrics {
  const existing = shared.get(registry);
  if (existing) return existing;
  const lagSources = new Set<() => Iterable<{ topic: string; group: string; lag: number }>>();
  const registers = [registry];
  const metrics: BusMetrics = {
    published: new Counter({
      name: 'updown_bus_published_total',
      help: 'Events published to the bus',
      labelNames: ['topic'],
      registers,
    }),
    consumed: new Counter({
      name: 'updown_bus_consumed_total',
      help: 'Messages a consumer group finished with, by outcome (handled or dead_lettered)',
      labelNames: ['topic', 'group', 'outcome'],
      registers,
    }),
    handlerDuration: new Histogram({
      name: 'updown_bus_handler_duration_seconds',
      help: 'Time spent in event handlers, per attempt',
      labelNames: ['topic', 'group'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    handlerRetries: new Counter({
      name: 'updown_bus_handler_retries_total',
      help: 'Handler attempts that threw and were retried',
      labelNames: ['topic', 'group'],
      registers,
    }),
    deadLetters: new Counter({
      name: 'updown_bus_dead_letters_total',
      help: 'Messages written to a dead-letter topic, by reason (invalid or handler_failed)',
      labelNames: ['topic', 'group', 'reason'],
      registers,
    }),
    retentionDropped: new Counter({
      name: 'updown_bus_retention_dropped_total',
      help: 'In-memory bus: messages dropped from a full partition that no consumer group was subscribed to',
      labelNames: ['topic'],
      registers,
    }),
    lag: new Gauge({
      name: 'updown_bus_consumer_lag',
      help: 'Messages published but not yet committed by a consumer group',
      labelNames: ['topic', 'group'],
      registers,
      collect() {
        // Summed over every source, so two members of one group in one process report the group's lag.
        const sums = new Map<string, { topic: string; group: string; lag: number }>();
        for (const source of lagSources) {
          for (const { topic, group, lag } of source()) {
            const key = `${topic}\u0000${group}`;
            const entry = sums.get(key) ?? { topic, group, lag: 0 };
            entry.lag += lag;
            sums.set(key, entry);
          }
        }
        this.reset();
        for (const { topic, group, lag } of sums.values()) this.set({ topic, group }, lag);
      },
    }),
    addLagSource(source) {
      lagSources.add(source);
      return () => lagSources.delete(source);
    },
  };
  shared.set(registry, metrics);
  return metrics;
}
