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
  readonly deleted: Counter;
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
      help: 'Outbox rows published to the bus and marked published',
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
      help: 'Attempts to publish an outbox row that failed (the row stays unpublished and is retried)',
      labelNames: ['topic'],
      registers,
    }),
    deleted: new Counter({
      name: 'updown_outbox_deleted_total',
      help: 'Published outbox rows deleted after the retention period',
      registers,
    }),
    backlog: new Gauge({
      name: 'updown_outbox_backlog',
      help: 'Outbox rows not yet published (counted up to a cap)',
      registers,
    }),
  };
  shared.set(registry, metrics);
  return metrics;
}
