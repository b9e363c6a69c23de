import { Counter, Gauge, type Registry } from 'prom-client';

/** Outbox metrics, created once per registry (several relays may share one, e.g. in tests). */
export interface OutboxMetrics {
  readonly relayed: Counter<'topic'>;
  readonly publishFailures: Counter<'topic'>;
  readonly deleted: Counter;
  readonly backlog: Gauge;
}

const shared = new WeakMap<Registry, OutboxMetrics>();

export function outboxMetrics(registry: Registry): OutboxMetrics {
  const existing = shared.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const metrics: OutboxMetrics = {
    relayed: new Counter({
      name: 'updown_outbox_relayed_total',
      help: 'Outbox rows published to the bus and marked published',
      labelNames: ['topic'],
      registers,
    }),
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
