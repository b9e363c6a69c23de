import type { Kysely } from 'kysely';
import type { Clock, Database, Logger } from '@updown/runtime';
import { deleteReferenceTicksBefore, deleteTicksBefore, pairsWithTicks } from './market.repository';
import type { PriceIngestMetrics } from './metrics';

const DAY_MS = 86_400_000;
/** Bounds one pass: a backlog (after a long outage or a shorter retention) is worked off over several passes. */
const CHUNKS_PER_PASS_MAX = 200;
const PAIRS_MAX = 10_000;

export interface TickRetentionOptions {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: PriceIngestMetrics;
  readonly retentionDays: number;
  readonly chunk: number;
}

/**
 * Deletes ticks older than the retention, pair by pair through the (pair, at_ms) index, in chunks that
 * are each a short transaction, so the table never grows without bound and no delete holds locks
 * or bloats the WAL for long; the pairs' reference ticks go with them. Candles are kept: they are
 * small and the charts need them.
 */
export async function deleteExpiredTicks(options: TickRetentionOptions): Promise<number> {
  const { db, clock, logger, metrics, chunk } = options;
  const cutoffMs = clock.nowMs() - options.retentionDays * DAY_MS;
  let deleted = 0;
  let chunks = 0;
  for (const pair of await pairsWithTicks(db, PAIRS_MAX)) {
    for (;;) {
      if (chunks >= CHUNKS_PER_PASS_MAX) {
        logger.info({ deleted, cutoffMs }, 'tick retention pass reached its bound; continuing next pass');
        return deleted;
      }
      const count = await deleteTicksBefore(db, pair, cutoffMs, chunk);
      const references = await deleteReferenceTicksBefore(db, pair, cutoffMs, chunk);
      chunks++;
      deleted += count;
      metrics.ticksDeleted.inc(count);
      // A full chunk of either kind means there may be more of it.
      if (count < chunk && references < chunk) break;
    }
  }
  if (deleted > 0) logger.info({ deleted, cutoffMs }, 'old ticks deleted');
  return deleted;
}
