import type { Transaction } from 'kysely';
import { DomainError, type Database } from '@updown/runtime';
import { deletePair as deletePairRow, lockExistingPair, type PairRow } from '@updown/price-ingest';
import { forgetPairRisk } from '../risk/risk.repository';
import { hasPendingTrades } from '../trades/trade-queries.repository';

/**
 * Deletes a pair with its risk settings and book, in the caller's transaction, so the caller's
 * record of it (the gateway's audit row) commits with it. The pair's row is price-ingest's; it lives
 * here because only order knows whether trades on the pair are still pending, and a pair with one
 * is refused: its settlement still needs the pair. An unknown symbol is price-ingest's
 * `PairNotFound`. Returns the pair as it was.
 */
export async function deletePair(trx: Transaction<Database>, symbol: string): Promise<PairRow> {
  const before = await lockExistingPair(trx, symbol);
  if (await hasPendingTrades(trx, symbol)) {
    throw new DomainError(
      'PAIR_HAS_PENDING_TRADES',
      `Cannot delete ${symbol} while it has pending trades; disable it and try again after they settle`,
    );
  }
  await deletePairRow(trx, symbol);
  await forgetPairRisk(trx, symbol);
  return before;
}
