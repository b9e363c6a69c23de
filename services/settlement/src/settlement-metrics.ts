import { Counter, Gauge, Histogram, type Registry } from '@updown/runtime';

export interface SettlementMetrics {
  readonly settled: Counter<'outcome'>;
  readonly lag: Histogram;
  readonly pending: Gauge;
  readonly batchSize: Histogram;
  readonly failures: Counter;
  /** The receipt issuer's (receipts/receipt-service.ts). */
  readonly receiptsIssued: Counter;
  readonly receiptsSkipped: Counter;
  readonly receiptsWaiting: Gauge;
  /** Pairs the loss circuit-breaker suspended (README "Risk controls"). */
  readonly suspensions: Counter<'pair'>;
}

const shared = new WeakMap<Registry, SettlementMetrics>();

/** Created once per registry: a restarted service object (or two in one test) shares the series. */
export function settlementMetrics(registry: Registry): SettlementMetrics {
  const existing = shared.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const metrics: SettlementMetrics = {
    settled: new Counter({
      name: 'updown_trades_settled_total',
      help: 'Trades moved from pending to a result, by outcome',
      labelNames: ['outcome'],
      registers,
    }),
    lag: new Histogram({
      name: 'updown_settlement_lag_seconds',
      help: 'From a trade expiry to its settlement (settled_at_ms - expiry)',
      buckets: [0.1, 0.25, 0.5, 1, 2, 2.5, 3, 5, 10, 30, 60, 300],
      registers,
    }),
    pending: new Gauge({
      name: 'updown_trades_pending',
      help: 'Pending trades in the settlement schedule',
      registers,
    }),
    batchSize: new Histogram({
      name: 'updown_settlement_batch_size',
      help: 'Trades settled per settlement transaction',
      buckets: [1, 10, 50, 100, 500, 1_000, 2_500, 5_000, 10_000],
      registers,
    }),
    failures: new Counter({
      name: 'updown_settlement_failures_total',
      help: 'Settlement passes that failed and were retried',
      registers,
    }),
    receiptsIssued: new Counter({
      name: 'updown_receipts_issued_total',
      help: 'Signed trade receipts issued',
      registers,
    }),
    receiptsSkipped: new Counter({
      name: 'updown_receipts_skipped_total',
      help: 'Settled trades given no receipt because they settled on ticks stored before the tick chain',
      registers,
    }),
    receiptsWaiting: new Gauge({
      name: 'updown_receipts_waiting',
      help: 'Settled trades whose receipt waits for its tick after expiry or its checkpoint (the backlog the last pass left)',
      registers,
    }),
    suspensions: new Counter({
      name: 'updown_risk_suspensions_total',
      help: 'Times the loss circuit-breaker suspended real placements on a pair',
      labelNames: ['pair'],
      registers,
    }),
  };
  shared.set(registry, metrics);
  return metrics;
}
