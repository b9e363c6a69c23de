import { sql, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';

/**
 * The trade-table side of bonus turnover, for settlement: which real trades share a pair and
 * expiry with the trades being settled (to tell a hedge), and the turnover each settled trade
 * counted. Each takes the settling transaction first and works on a whole batch in one statement.
 */

export interface ExpiryGroupKey {
  readonly userId: string;
  readonly pair: string;
  readonly expiryAtMs: number;
}

export interface SameExpiryTrade {
  readonly tradeId: string;
  readonly userId: string;
  readonly pair: string;
  readonly direction: 'UP' | 'DOWN';
  readonly expiryAtMs: number;
  readonly durationSec: number;
  readonly amountCents: number;
}

/** The owners' real trades on each (user, pair, expiry) asked for, settled or not. */
export async function loadRealTradesSharingExpiry(
  trx: Transaction<Database>,
  keys: readonly ExpiryGroupKey[],
): Promise<SameExpiryTrade[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<{
    id: string;
    user_id: string;
    pair: string;
    direction: 'UP' | 'DOWN';
    expiry_at_ms: number;
    duration_sec: number;
    amount_cents: number;
  }>`
    select t.id, t.user_id, t.pair, t.direction, t.expiry_at_ms, t.duration_sec, t.amount_cents
    from (
      select distinct * from unnest(
        ${keys.map((k) => k.userId)}::uuid[], ${keys.map((k) => k.pair)}::text[],
        ${keys.map((k) => k.expiryAtMs)}::bigint[]
      ) as k (user_id, pair, expiry_at_ms)
    ) k
    join trades t on t.user_id = k.user_id and t.pair = k.pair and t.expiry_at_ms = k.expiry_at_ms
    where t.account_type = 'real'`.execute(trx);
  return rows.map((r) => ({
    tradeId: r.id,
    userId: r.user_id,
    pair: r.pair,
    direction: r.direction,
    expiryAtMs: r.expiry_at_ms,
    durationSec: r.duration_sec,
    amountCents: r.amount_cents,
  }));
}
