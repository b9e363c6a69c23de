import { sql, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { transferBatch, userAccountCode } from '@updown/wallet';
import { turnoverCents, TURNOVER_DURATION_SEC_MIN, type TurnoverCandidate } from './settlement.domain';

/**
 * The bonus wagering hook (DESIGN §4, spec §9): settled trades add their stake to their owner's
 * active bonus, and a bonus whose turnover reaches its requirement completes and its remaining
 * bonus balance becomes cash.
 */

export type TurnoverTrade = TurnoverCandidate;

export interface CompletedBonus {
  readonly bonusId: string;
  readonly userId: string;
  /** What moved from the user's `bonus` account to `real`; 0 when the bonus balance was empty. */
  readonly convertedCents: number;
}

export interface BonusTurnoverResult {
  /** What each trade added (0 for demo, short and hedged trades), also stored on `trades.turnover_cents`. */
  readonly turnoverByTrade: ReadonlyMap<string, number>;
  readonly completed: readonly CompletedBonus[];
}

/**
 * Call inside the transaction that settled `trades`, with exactly the trades that transition
 * pending → settled in it (a trade passed twice would count twice). Writes each trade's
 * `turnover_cents`, adds the per-user sums to active, unexpired bonuses, completes those that
 * reached `turnover_required_cents` (status, `closed_at`) and converts their remaining `bonus`
 * balance to `real` (ledger entry `bonus_conversion`, key `bonus:<id>:convert`). At most six
 * statements, whatever the number of trades.
 *
 * Bonus stakes still in play in other pending trades when the bonus completes return to the
 * `bonus` account when those trades settle; converting them is left to the bonus service.
 */
export async function applyBonusTurnover(
  trx: Transaction<Database>,
  trades: readonly TurnoverTrade[],
  now: number,
): Promise<BonusTurnoverResult> {
  const turnoverByTrade = await turnoverOf(trx, trades);
  if (trades.length > 0) {
    // Rows already holding the value (settlement writes 0 with the status) are not rewritten.
    await sql`
      update trades t set turnover_cents = u.cents
      from unnest(${trades.map((t) => t.tradeId)}::uuid[], ${trades.map((t) => turnoverByTrade.get(t.tradeId) ?? 0)}::bigint[])
        as u (id, cents)
      where t.id = u.id and t.turnover_cents is distinct from u.cents`.execute(trx);
  }
  const perUser = new Map<string, number>();
  for (const trade of trades) {
    const cents = turnoverByTrade.get(trade.tradeId) ?? 0;
    if (cents > 0) perUser.set(trade.userId, (perUser.get(trade.userId) ?? 0) + cents);
  }
  if (perUser.size === 0) return { turnoverByTrade, completed: [] };
  const completing = await addTurnover(trx, perUser, now);
  const completed = await convertBonusBalances(trx, completing, now);
  return { turnoverByTrade, completed };
}

/**
 * Locks the active bonus rows of these users, in id order. Settlement calls it before it moves any
 * money: the wallet's bonus commands (cancel, a withdrawal's forfeit, expiry) take a user's bonus
 * row and then their ledger accounts, so settlement must take them in that order too. Taking the
 * accounts first (the payouts) and the bonus row last (turnover) deadlocked with a bonus cancel of
 * the same user, and PostgreSQL aborted one of them.
 */
export async function lockActiveBonuses(
  trx: Transaction<Database>,
  userIds: readonly string[],
): Promise<void> {
  if (userIds.length === 0) return;
  await sql`
    select id from bonuses where user_id = any(${[...new Set(userIds)]}::uuid[]) and status = 'active'
    order by id for no key update`.execute(trx);
}

/** Hedge-aware turnover per trade: reads the owners' real trades sharing each pair and expiry, settled or not. */
async function turnoverOf(
  trx: Transaction<Database>,
  trades: readonly TurnoverTrade[],
): Promise<Map<string, number>> {
  const result = new Map(trades.map((t) => [t.tradeId, 0]));
  const eligible = trades.filter(
    (t) => t.accountType === 'real' && t.durationSec >= TURNOVER_DURATION_SEC_MIN,
  );
  if (eligible.length === 0) return result;
  const { rows } = await sql<{
    id: string;
    user_id: string;
    pair: string;
    direction: 'UP' | 'DOWN';
    expiry_ts: number;
    duration_sec: number;
    amount_cents: number;
  }>`
    select t.id, t.user_id, t.pair, t.direction, t.expiry_ts, t.duration_sec, t.amount_cents
    from (
      select distinct * from unnest(
        ${eligible.map((t) => t.userId)}::uuid[], ${eligible.map((t) => t.pair)}::text[],
        ${eligible.map((t) => t.expiryTs)}::bigint[]
      ) as k (user_id, pair, expiry_ts)
    ) k
    join trades t on t.user_id = k.user_id and t.pair = k.pair and t.expiry_ts = k.expiry_ts
    where t.account_type = 'real'`.execute(trx);
  const groups = new Map<string, TurnoverCandidate[]>();
  for (const row of rows) {
    const key = `${row.user_id}|${row.pair}|${row.expiry_ts}`;
    const candidate: TurnoverCandidate = {
      tradeId: row.id,
      userId: row.user_id,
      pair: row.pair,
      direction: row.direction,
      expiryTs: row.expiry_ts,
      durationSec: row.duration_sec,
      accountType: 'real',
      amountCents: row.amount_cents,
    };
    const group = groups.get(key);
    if (group) group.push(candidate);
    else groups.set(key, [candidate]);
  }
  for (const trade of eligible) {
    const sameExpiry = groups.get(`${trade.userId}|${trade.pair}|${trade.expiryTs}`) ?? [trade];
    result.set(trade.tradeId, turnoverCents(trade, sameExpiry));
  }
  return result;
}

/** Adds each user's turnover to their active bonus and closes the ones that reached the requirement. */
async function addTurnover(
  trx: Transaction<Database>,
  perUser: ReadonlyMap<string, number>,
  now: number,
): Promise<{ bonusId: string; userId: string }[]> {
  const at = new Date(now);
  const { rows } = await sql<{ id: string; user_id: string; status: string }>`
    update bonuses b
    set turnover_cents = b.turnover_cents + u.cents,
        status = case when b.turnover_cents + u.cents >= b.turnover_required_cents then 'completed' else b.status end,
        closed_at = case when b.turnover_cents + u.cents >= b.turnover_required_cents then ${at}::timestamptz else null end
    from unnest(${[...perUser.keys()]}::uuid[], ${[...perUser.values()]}::bigint[]) as u (user_id, cents)
    where b.user_id = u.user_id and b.status = 'active' and b.expires_at > ${at}::timestamptz
    returning b.id, b.user_id, b.status`.execute(trx);
  return rows.filter((r) => r.status === 'completed').map((r) => ({ bonusId: r.id, userId: r.user_id }));
}

/** Moves each completed bonus's remaining balance from `bonus` to `real`: it becomes withdrawable cash. */
async function convertBonusBalances(
  trx: Transaction<Database>,
  completing: readonly { bonusId: string; userId: string }[],
  now: number,
): Promise<CompletedBonus[]> {
  if (completing.length === 0) return [];
  // Both accounts, in id order like every other lock on them, so a placement by the same user waits
  // rather than deadlocks; only the bonus balance is needed.
  const codes = completing.flatMap((c) => [
    userAccountCode(c.userId, 'real'),
    userAccountCode(c.userId, 'bonus'),
  ]);
  const { rows } = await sql<{ owner_id: string; type: string; balance: number }>`
    select owner_id, type, balance from ledger_accounts where code = any(${codes}::text[]) order by id for update`.execute(
    trx,
  );
  const balances = new Map(rows.filter((r) => r.type === 'bonus').map((r) => [r.owner_id, r.balance]));
  const completed = completing.map((c) => ({ ...c, convertedCents: balances.get(c.userId) ?? 0 }));
  await transferBatch(
    trx,
    completed
      .filter((c) => c.convertedCents > 0)
      .map((c) => ({
        kind: 'bonus_conversion',
        idempotencyKey: `bonus:${c.bonusId}:convert`,
        ref: { bonusId: c.bonusId },
        occurredAt: new Date(now),
        postings: [
          { account: { owner: c.userId, type: 'bonus' as const }, amount: -c.convertedCents },
          { account: { owner: c.userId, type: 'real' as const }, amount: c.convertedCents },
        ],
      })),
  );
  return completed;
}
