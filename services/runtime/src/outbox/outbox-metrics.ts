import { Counter, Gauge, type Registry } from 'prom-client';

/** Outbox metrics, created once per registry (several relays may share one, e.g. in tests). */
export interface OutboxMetrics {
  readonly relayed: Counter<'topic'>;
  /**
   * The count of one topic's relayed rows, added to `updown_outbox_relayed_total{topic}` when
   * scraped: every relay pass counts each row it published, and an `inc` with a label built a
   * label key and an object per row. The same object for a topic every time.
   */
  relayedCount(topic: string): RelayedCount;
  readonly publishFailures: Counter<'topic'>;
  readonly backlog: Gauge;
}

export class RelayedCount {
  relayed = 0;
  reported = 0;
  constructor(readonly labels: { readonly topic: string }) {}
}

const shared = new WeakMap<Registry, OutboxMetrics>();

export function outboxMetrics(registry: Registry): OutboxMetrics {
  const existing = shared.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const relayedCounts = new Map<string, RelayedCount>();
  const metrics: OutboxMetrics = {
    relayed: new Counter({
      name: 'updown_outbox_relayed_total',
      help: "Events published to the bus from the outbox sources' rows",
      labelNames: ['topic'],
      registers,
      collect() {
        for (const count of relayedCounts.values()) {
          if (count.relayed === count.reported) continue;
          this.inc(count.labels, count.relayed - count.reported);
          count.reported = count.relayed;
        }
      },
    }),
    relayedCount(topic) {
      let count = relayedCounts.get(topic);
      if (count === undefined) {
        count = new RelayedCount({ topic });
        relayedCounts.set(topic, count);
      }
      return count;
    },
    publishFailures: new Counter({
      name: 'updown_outbox_publish_failures_total',
      help: "Attempts to publish a source's rows that failed (its cursor stays, and the rows are retried); labelled with the first row's topic",
      labelNames: ['topic'],
      registers,
    }),
    backlog: new Gauge({
      name: 'updown_outbox_backlog',
      help: "Committed rows of this relay's outbox sources waiting after their cursors to be published (counted up to a cap)",
      registers,
    }),
  };
  shared.set(registry, metrics);
  return metrics;
}
