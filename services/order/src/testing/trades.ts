import { sql, type Kysely, type Transaction } from 'kysely';
import { committedAfter, type Database } from '@updown/runtime';
import { waitFor } from '@updown/runtime/testing';
import { recountBooks } from '../risk/risk.repository';

/** Test helpers over the trades table, for other packages' tests (`@updown/order/testing`). */

export interface SeededTrade {
  readonly id: string;
  readonly userId: string;
  readonly direction: 'UP' | 'DOWN';
  readonly accountType: 'demo' | 'real';
  readonly amountCents: number;
}

/**
 * Inserts pending trades in one statement, bypassing placement: for load-shaped tests where placing
 * one by one would only slow the test down. The caller holds the stakes in the ledger itself; the
 * pairs' risk books are recounted here, as placement would have kept them.
 */
export async function insertPendingTrades(
  trx: Transaction<Database>,
  spec: {
    readonly trades: readonly SeededTrade[];
    readonly pair: string;
    readonly acceptedAtMs: number;
    readonly durationSec: number;
    readonly entryPrice: number;
  },
): Promise<void> {
  const { trades } = spec;
  await sql`
      insert into trades (id, user_id, pair, direction, account_type, amount_cents, stake_cash_cents, stake_bonus_cents,
                          payout_pct, duration_sec, entry_price, entry_at_ms, accepted_at_ms, expiry_at_ms)
      select t.id, t.user_id, ${spec.pair}, t.direction, t.account_type, t.amount, t.amount, 0,
             80, ${spec.durationSec}, ${spec.entryPrice}, ${spec.acceptedAtMs}, ${spec.acceptedAtMs}, ${spec.acceptedAtMs + spec.durationSec * 1000}
      from unnest(${trades.map((t) => t.id)}::uuid[], ${trades.map((t) => t.userId)}::uuid[],
                  ${trades.map((t) => t.direction)}::text[], ${trades.map((t) => t.accountType)}::text[],
                  ${trades.map((t) => t.amountCents)}::bigint[]) as t (id, user_id, direction, account_type, amount)`.execute(
    trx,
  );
  await recountBooks(trx);
}

export async function countPendingTrades(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('trades')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * Waits until the settlements of `tradeIds` are older than every transaction still running on the
 * server, which is when the settled trades' source (`readSettledAfter`) returns them: the same
 * `committedAfter` condition. The snapshot's xmin is the whole server's: a transaction open in
 * another database (another test file's, when files run side by side) holds them back until it ends.
 */
export async function settledTradesReadable(
  db: Kysely<Database>,
  tradeIds: readonly string[],
  timeoutMs = 10_000,
): Promise<void> {
  const readable = async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from trades
      where id = any(${tradeIds}::uuid[])
        and ${committedAfter({ xactId: 'settled_xact_id', seq: 'settled_seq' }, null)}`.execute(db);
    return rows[0]!.n === tradeIds.length;
  };
  await waitFor(readable, { timeoutMs, what: `settled trades ${tradeIds.join(', ')} to be readable` });
}
