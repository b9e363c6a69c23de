import type { Kysely } from 'kysely';
import {
  repeatEvery,
  type Clock,
  type Database,
  type Logger,
  type Registry,
  type SigningKey,
} from '@updown/runtime';
import { settlementMetrics } from '../settlement-metrics';
import { issueReceipts, RECEIPT_BATCH_MAX, type IssuedReceipts } from './receipt-issuer';

export interface ReceiptIssuerDeps {
  readonly db: Kysely<Database>;
  readonly key: SigningKey;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly registry: Registry;
  /** How often the issuer looks for settled trades whose checkpoint is signed. */
  readonly intervalMs: number;
  /** How long a receipt may wait for its proof (a dead feed) before its wait is logged as overdue. */
  readonly waitMsMax: number;
  /** Passes one run makes while each finds a full batch. */
  readonly passesMax?: number;
}

export interface RunningReceiptIssuer {
  /** Issues every receipt that can be issued now; resolves to the totals. */
  issueNow(): Promise<IssuedReceipts>;
  stop(): Promise<void>;
}

/**
 * Issues receipts for settled trades, in the order they settled, once a signed checkpoint covers
 * each one's ticks (price-ingest signs one per pair every `CHECKPOINT_INTERVAL_MS`): a receipt
 * follows its settlement by up to one checkpoint interval.
 */
export function startReceiptIssuer(deps: ReceiptIssuerDeps): RunningReceiptIssuer {
  const metrics = settlementMetrics(deps.registry);
  const passesMax = deps.passesMax ?? 100;
  // Logged when it changes, not every pass: the issuer runs every second.
  let overdueLogged = 0;
  const run = async (): Promise<IssuedReceipts> => {
    const total = { issued: 0, waiting: 0, overdue: 0, skipped: 0 };
    for (let pass = 0; pass < passesMax; pass++) {
      const result = await issueReceipts(deps.db, {
        key: deps.key,
        nowMs: deps.clock.nowMs(),
        batch: RECEIPT_BATCH_MAX,
        waitMsMax: deps.waitMsMax,
      });
      total.issued += result.issued;
      total.skipped += result.skipped;
      total.waiting = result.waiting;
      total.overdue = result.overdue;
      metrics.receiptsIssued.inc(result.issued);
      metrics.receiptsSkipped.inc(result.skipped);
      if (result.issued + result.skipped + result.waiting < RECEIPT_BATCH_MAX) break;
    }
    metrics.receiptsWaiting.set(total.waiting);
    if (total.overdue !== overdueLogged) {
      overdueLogged = total.overdue;
      if (total.overdue > 0) {
        deps.logger.warn(
          { overdue: total.overdue, waitMsMax: deps.waitMsMax },
          'receipts still wait for a tick after their expiry or a checkpoint; they are issued once the chain proves them',
        );
      }
    }
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
