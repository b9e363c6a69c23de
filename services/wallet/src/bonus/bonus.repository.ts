import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';

/** Reads and writes of `bonuses`. Locks on bonus rows are taken through the lock protocol. */

type Db = Kysely<Database> | Transaction<Database>;
export type BonusRow = Selectable<Database['bonuses']>;

/** The bonus the wallet shows: the active one, else the most recently credited; and whether any exists. */
export async function latestBonus(db: Db, userId: string): Promise<BonusRow | undefined> {
  return db
    .selectFrom('bonuses')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy((eb) => eb.case().when('status', '=', 'active').then(0).else(1).end())
    .orderBy('credited_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertBonus(
  trx: Transaction<Database>,
  row: {
    id: string;
    userId: string;
    amountCents: number;
    turnoverRequiredCents: number;
    creditedAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await trx
    .insertInto('bonuses')
    .values({
      id: row.id,
      user_id: row.userId,
      amount_cents: row.amountCents,
      turnover_required_cents: row.turnoverRequiredCents,
      credited_at: row.creditedAt,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** Closes an active bonus; false when it was no longer active. */
export async function closeActiveBonus(
  trx: Transaction<Database>,
  bonusId: string,
  status: 'forfeited' | 'expired',
  now: Date,
): Promise<boolean> {
  const closed = await trx
    .updateTable('bonuses')
    .set({ status, closed_at: now })
    .where('id', '=', bonusId)
    .where('status', '=', 'active')
    .returning('id')
    .executeTakeFirst();
  return closed !== undefined;
}

/** Active bonuses past their expiry, oldest first. */
export async function dueBonuses(
  db: Db,
  now: Date,
  limit: number,
): Promise<{ id: string; user_id: string }[]> {
  return db
    .selectFrom('bonuses')
    .select(['id', 'user_id'])
    .where('status', '=', 'active')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

/** The user's most recently credited bonus. */
export async function lastCreditedBonus(
  db: Db,
  userId: string,
): Promise<Pick<BonusRow, 'id' | 'status'> | undefined> {
  return db
    .selectFrom('bonuses')
    .select(['id', 'status'])
    .where('user_id', '=', userId)
    .orderBy('credited_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}
