import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';
import { offeredPayoutPct } from './risk.domain';
import { bookOf, listPairRisks, settingsOf } from './risk.repository';

/** What the risk controls add to a pair as the API shows it (`MarketPair`). */
export interface PairQuote {
  readonly payout_up_pct: number;
  readonly payout_down_pct: number;
  readonly real_trading: 'open' | 'suspended';
}

/**
 * The pairs with the payout offered on each side now (after skew) and whether real trading is
 * suspended: the read model of the pairs list, one statement for all pairs. A pair no admin
 * configured offers its payout on both sides.
 */
export async function withRiskQuotes<P extends { symbol: string; payout_pct: number }>(
  db: Kysely<Database>,
  pairs: readonly P[],
): Promise<(P & PairQuote)[]> {
  if (pairs.length === 0) return [];
  const risks = await listPairRisks(
    db,
    pairs.map((p) => p.symbol),
  );
  return pairs.map((pair) => {
    const row = risks.get(pair.symbol);
    if (!row)
      return {
        ...pair,
        payout_up_pct: pair.payout_pct,
        payout_down_pct: pair.payout_pct,
        real_trading: 'open',
      };
    const settings = settingsOf(row);
    const book = bookOf(row);
    return {
      ...pair,
      payout_up_pct: offeredPayoutPct(pair.payout_pct, settings, book, 'UP'),
      payout_down_pct: offeredPayoutPct(pair.payout_pct, settings, book, 'DOWN'),
      real_trading: row.suspended_at_ms === null ? 'open' : 'suspended',
    };
  });
}
