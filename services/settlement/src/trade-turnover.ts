import type { Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { loadRealTradesSharingExpiry } from '@updown/order';
import { turnoverCents, TURNOVER_DURATION_SEC_MIN, type TurnoverCandidate } from './settlement.domain';

/**
 * The turnover settled trades count toward their owner's bonus (DESIGN §4, spec §9): the stake of
 * a real trade of 30 s or more, except both legs of a hedge. Adding it to the bonus, completing
 * and converting it is the wallet's (`applyBonusTurnover`).
 */

export type TurnoverTrade = TurnoverCandidate;

/**
 * Decides each trade's turnover, hedge-aware: one read of the owners' real trades sharing each
 * pair and expiry (none when no trade is eligible). Call it inside the settling transaction, after
 * the trades are locked; the result is stored with the status by `markSettled` (one write of each
 * row) and summed per user with `turnoverByUser` over the trades that transitioned.
 */
export async function decideTradeTurnover(
  trx: Transaction<Database>,
  trades: readonly TurnoverTrade[],
): Promise<Map<string, number>> {
  const result = new Map(trades.map((t) => [t.tradeId, 0]));
  const eligible = trades.filter(
    (t) => t.accountType === 'real' && t.durationSec >= TURNOVER_DURATION_SEC_MIN,
  );
  if (eligible.length === 0) return result;
  const sharing = await loadRealTradesSharingExpiry(trx, eligible);
  const groups = new Map<string, TurnoverCandidate[]>();
  for (const trade of sharing) {
    const key = `${trade.userId}|${trade.pair}|${trade.expiryAtMs}`;
    const candidate: TurnoverCandidate = { ...trade, accountType: 'real' };
    const group = groups.get(key);
    if (group) group.push(candidate);
    else groups.set(key, [candidate]);
  }
  for (const trade of eligible) {
    const sameExpiry = groups.get(`${trade.userId}|${trade.pair}|${trade.expiryAtMs}`) ?? [trade];
    result.set(trade.tradeId, turnoverCents(trade, sameExpiry));
  }
  return result;
}

/**
 * The turnover per user of `trades`, which must be exactly the trades that transition pending →
 * settled in the transaction (a trade passed twice would count twice).
 */
export function turnoverByUser(
  trades: readonly { readonly tradeId: string; readonly userId: string }[],
  turnoverByTrade: ReadonlyMap<string, number>,
): Map<string, number> {
  const perUser = new Map<string, number>();
  for (const trade of trades) {
    const cents = turnoverByTrade.get(trade.tradeId) ?? 0;
    if (cents > 0) perUser.set(trade.userId, (perUser.get(trade.userId) ?? 0) + cents);
  }
  return perUser;
}
