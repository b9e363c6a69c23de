import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { HistogramCounts, serveScraped } from '../scraped-histogram';

/**
 * Bus metrics, created once per registry and shared by every bus on it (prom-client refuses two
 * metrics with one name in a registry, and tests may open several buses on one registry).
 *
 * What every message adds to (a publish of the in-memory bus, a handler's outcome, time and
 * retries) goes into plain numbers kept per topic and group, handed to prom-client only when
 * scraped: an `inc` or `observe` with labels builds its label key every time, and every tick
 * reaches several subscriptions in each process, so that was a steady share of what an idle
 * process allocates. The rarer paths (dead letters, Kafka's batched publishes) call prom-client.
 */
export interface BusMetrics {
  readonly published: Counter<'topic'>;
  readonly consumed: Counter<'topic' | 'group' | 'outcome'>;
  readonly handlerRetries: Counter<'topic' | 'group'>;
  readonly deadLetters: Counter<'topic' | 'group' | 'reason'>;
  readonly retentionDropped: Counter<'topic'>;
  readonly lag: Gauge<'topic' | 'group'>;
  /** The counts of one topic's publishes, made on the first and the same object after. */
  publishCounts(topic: string): PublishCounts;
  /** The counts of one group's deliveries of a topic, made on the first and the same object after. */
  deliveryCounts(topic: string, group: string): DeliveryCounts;
  /** Adds a source the lag gauge reads at scrape time; returns a function that removes it. */
  addLagSource(source: () => Iterable<{ topic: string; group: string; lag: number }>): () => void;
}

/** `updown_bus_handler_duration_seconds` buckets, in seconds. */
export const HANDLER_DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class PublishCounts {
  /** Added to `updown_bus_published_total{topic}` at the next scrape. */
  published = 0;
  reported = 0;
  constructor(readonly labels: { readonly topic: string }) {}
}

export class DeliveryCounts {
  /** Messages handled: `updown_bus_consumed_total{outcome="handled"}`. */
  handled = 0;
  /** Attempts that threw and were retried: `updown_bus_handler_retries_total`. */
  retries = 0;
  /** Each attempt's time in the handler: `updown_bus_handler_duration_seconds`. */
  readonly durations: HistogramCounts;
  reportedHandled = 0;
  reportedRetries = 0;
  readonly handledLabels: { readonly topic: string; readonly group: string; readonly outcome: 'handled' };

  constructor(readonly labels: { readonly topic: string; readonly group: string }) {
    this.handledLabels = { ...labels, outcome: 'handled' };
    this.durations = new HistogramCounts(HANDLER_DURATION_BUCKETS, labels);
  }
}

const shared = new WeakMap<Registry, BusMetrics>();

export function busMetrics(registry: Registry): BusMetrics {
  const existing = shared.get(registry);
  if (existing) return existing;
  const lagSources = new Set<() => Iterable<{ topic: string; group: string; lag: number }>>();
  const publishes = new Map<string, PublishCounts>();
  const deliveries = new Map<string, Map<string, DeliveryCounts>>();
  const allDeliveries: DeliveryCounts[] = [];
  const registers = [registry];
  const metrics: BusMetrics = {
    published: new Counter({
      name: 'updown_bus_published_total',
      help: 'Events published to the bus',
      labelNames: ['topic'],
      registers,
      collect() {
        for (const counts of publishes.values()) {
          if (counts.published === counts.reported) continue;
          this.inc(counts.labels, counts.published - counts.reported);
          counts.reported = counts.published;
        }
      },
    }),
    consumed: new Counter({
      name: 'updown_bus_consumed_total',
      help: 'Messages a consumer group finished with, by outcome (handled or dead_lettered)',
      labelNames: ['topic', 'group', 'outcome'],
      registers,
      collect() {
        for (const counts of allDeliveries) {
          if (counts.handled === counts.reportedHandled) continue;
          this.inc(counts.handledLabels, counts.handled - counts.reportedHandled);
          counts.reportedHandled = counts.handled;
        }
      },
    }),
    handlerRetries: new Counter({
      name: 'updown_bus_handler_retries_total',
      help: 'Handler attempts that threw and were retried',
      labelNames: ['topic', 'group'],
      registers,
      collect() {
        for (const counts of allDeliveries) {
          if (counts.retries === counts.reportedRetries) continue;
          this.inc(counts.labels, counts.retries - counts.reportedRetries);
          counts.reportedRetries = counts.retries;
        }
      },
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
    publishCounts(topic) {
      let counts = publishes.get(topic);
      if (counts === undefined) {
        counts = new PublishCounts({ topic });
        publishes.set(topic, counts);
      }
      return counts;
    },
    deliveryCounts(topic, group) {
      let byTopic = deliveries.get(group);
      if (byTopic === undefined) {
        byTopic = new Map();
        deliveries.set(group, byTopic);
      }
      let counts = byTopic.get(topic);
      if (counts === undefined) {
        counts = new DeliveryCounts({ topic, group });
        byTopic.set(topic, counts);
        allDeliveries.push(counts);
      }
      return counts;
    },
    addLagSource(source) {
      lagSources.add(source);
      return () => lagSources.delete(source);
    },
  };
  registerHandlerDuration(registry, allDeliveries);
  shared.set(registry, metrics);
  return metrics;
}

/** `updown_bus_handler_duration_seconds{topic,group}`, read from the counts when scraped. */
function registerHandlerDuration(registry: Registry, allDeliveries: readonly DeliveryCounts[]): void {
  const histogram = new Histogram({
    name: 'updown_bus_handler_duration_seconds',
    help: 'Time spent in event handlers, per attempt',
    labelNames: ['topic', 'group'],
    buckets: HANDLER_DURATION_BUCKETS,
    registers: [],
  });
  serveScraped(registry, histogram, () => allDeliveries.map((counts) => counts.durations));
}
