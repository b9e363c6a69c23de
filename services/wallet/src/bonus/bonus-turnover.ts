import { sql, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { userAccountCode } from '../ledger/ledger.domain';
import { transferBatch } from '../ledger/ledger.repository';
import { assertAccountsHeld, type LockedBonus } from '../locks/lock-protocol';

/**
 * The bonus wagering rule (DESIGN §4, spec §9): settled trades add their turnover to their owner's
 * active bonus, and a bonus whose turnover reaches its requirement completes and its remaining
 * bonus balance becomes cash.
 */

export interface CompletedBonus {
  readonly bonusId: string;
  readonly userId: string;
  /** What moved from the user's `bonus` account to `real`; 0 when the bonus balance was empty. */
  readonly convertedCents: number;
}

/**
 * Call after the lock protocol's levels 3 and 4: `bonuses` are the active bonus rows the command
 * locked, and the ledger accounts it locked include `real` and `bonus` of each of their owners.
 * Adds each user's turnover to their locked bonus if it is unexpired at `now`, completes those
 * that reached `turnover_required_cents` (status, `closed_at`) and converts their remaining `bonus`
 * balance to `real` (entry `bonus_conversion`, key `bonus:<id>:convert`). At most four statements,
 * whatever the number of users; one when no bonus completes.
 *
 * Bonus stakes still in play in other pending trades when the bonus completes return to the
 * `bonus` account when those trades settle; they are not converted.
 */
export async function applyBonusTurnover(
  trx: Transaction<Database>,
  bonuses: readonly LockedBonus[],
  turnoverByUser: ReadonlyMap<string, number>,
  now: number,
): Promise<CompletedBonus[]> {
  const credited = bonuses.filter((b) => (turnoverByUser.get(b.userId) ?? 0) > 0);
  if (credited.length === 0) return [];
  const at = new Date(now);
  const { rows } = await sql<{ id: string; user_id: string; status: string }>`
    update bonuses b
    set turnover_cents = b.turnover_cents + u.cents,
        status = case when b.turnover_cents + u.cents >= b.turnover_required_cents then 'completed' else b.status end,
        closed_at = case when b.turnover_cents + u.cents >= b.turnover_required_cents then ${at}::timestamptz else null end
    from unnest(
      ${credited.map((b) => b.id)}::uuid[],
      ${credited.map((b) => turnoverByUser.get(b.userId)!)}::bigint[]
    ) as u (id, cents)
    where b.id = u.id and b.status = 'active' and b.expires_at > ${at}::timestamptz
    returning b.id, b.user_id, b.status`.execute(trx);
  const completing = rows
    .filter((r) => r.status === 'completed')
    .map((r) => ({ bonusId: r.id, userId: r.user_id }));
  return convertBonusBalances(trx, completing, now);
}

/** Moves each completed bonus's remaining balance from `bonus` to `real`: it becomes withdrawable cash. */
async function convertBonusBalances(
  trx: Transaction<Database>,
  completing: readonly { bonusId: string; userId: string }[],
  now: number,
): Promise<CompletedBonus[]> {
  if (completing.length === 0) return [];
  const bonusCodes = completing.map((c) => userAccountCode(c.userId, 'bonus'));
  // The command holds these accounts (level 4), so the balances read cannot move before they are posted.
  assertAccountsHeld(trx, [...bonusCodes, ...completing.map((c) => userAccountCode(c.userId, 'real'))]);
  const rows = await trx
    .selectFrom('ledger_accounts')
    .select(['owner_id', 'balance'])
    .where('code', 'in', bonusCodes)
    .execute();
  const balances = new Map(rows.map((r) => [r.owner_id, Number(r.balance)]));
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
          { account: { owner: c.userId, type: 'bonus' as const }, amountCents: -c.convertedCents },
          { account: { owner: c.userId, type: 'real' as const }, amountCents: c.convertedCents },
        ],
      })),
  );
  return completed;
}
