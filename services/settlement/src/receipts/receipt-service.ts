import type { Kysely } from 'kysely';
import {
  Counter,
  Gauge,
  repeatEvery,
  type Clock,
  type Database,
  type Logger,
  type Registry,
  type SigningKey,
} from '@updown/runtime';
import { issueReceipts, RECEIPT_BATCH_MAX, type IssuedReceipts } from './receipt-issuer';

export interface ReceiptIssuerDeps {
  readonly db: Kysely<Database>;
  readonly key: SigningKey;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly registry: Registry;
  /** How often the issuer looks for settled trades whose checkpoint is signed. */
  readonly intervalMs: number;
  /** How long a receipt waits for the tick after expiry (a dead feed) before it is issued without it. */
  readonly waitMaxMs: number;
  /** Passes one run makes while each finds a full batch. */
  readonly passesMax?: number;
}

export interface RunningReceiptIssuer {
  /** Issues every receipt that can be issued now; resolves to the totals. */
  issueNow(): Promise<IssuedReceipts>;
  stop(): Promise<void>;
}

const shared = new WeakMap<Registry, { issued: Counter; skipped: Counter; waiting: Gauge }>();

function metricsOf(registry: Registry) {
  let metrics = shared.get(registry);
  if (!metrics) {
    const registers = [registry];
    metrics = {
      issued: new Counter({
        name: 'updown_receipts_issued_total',
        help: 'Signed trade receipts issued',
        registers,
      }),
      skipped: new Counter({
        name: 'updown_receipts_skipped_total',
        help: 'Settled trades given no receipt because they settled on ticks stored before the tick chain',
        registers,
      }),
      waiting: new Gauge({
        name: 'updown_receipts_waiting',
        help: 'Settled trades whose receipt waits for its tick after expiry or its checkpoint (the backlog the last pass left)',
        registers,
      }),
    };
    shared.set(registry, metrics);
  }
  return metrics;
}

/**
 * Issues receipts for settled trades, in the order they settled, once a signed checkpoint covers
 * each one's ticks (price-ingest signs one per pair every `CHECKPOINT_INTERVAL_MS`): a receipt
 * follows its settlement by up to one checkpoint interval.
 */
export function startReceiptIssuer(deps: ReceiptIssuerDeps): RunningReceiptIssuer {
  const metrics = metricsOf(deps.registry);
  const passesMax = deps.passesMax ?? 100;
  const run = async (): Promise<IssuedReceipts> => {
    const total = { issued: 0, waiting: 0, skipped: 0 };
    for (let pass = 0; pass < passesMax; pass++) {
      const result = await issueReceipts(deps.db, {
        key: deps.key,
        nowMs: deps.clock.now(),
        batch: RECEIPT_BATCH_MAX,
        waitMaxMs: deps.waitMaxMs,
      });
      total.issued += result.issued;
      total.skipped += result.skipped;
      total.waiting = result.waiting;
      metrics.issued.inc(result.issued);
      metrics.skipped.inc(result.skipped);
      if (result.issued + result.skipped + result.waiting < RECEIPT_BATCH_MAX) break;
    }
    metrics.waiting.set(total.waiting);
    return total;
  };
  const repeating = repeatEvery({
    clock: deps.clock,
    intervalMs: deps.intervalMs,
    name: 'receipt issuer',
    logger: deps.logger,
    task: run,
  });
  return { issueNow: () => repeating.runNow(), stop: () => repeating.stop() };
}
