import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { DomainError } from '@updown/runtime/errors';

/**
 * The withdrawal gate (README "Identity verification"): a real withdrawal is requested only by a
 * user whose identity an admin verified. The gateway's verification approval calls
 * `clearWithdrawals` inside its own transaction, so the clearance commits with the decision or
 * not at all; `requestWithdrawal` reads it under the user's wallet lock.
 */

export class IdentityNotVerified extends DomainError {
  constructor() {
    super(
      'IDENTITY_NOT_VERIFIED',
      'Verify your identity before withdrawing: upload a photo ID and a proof of address on your dashboard',
    );
  }
}

/** Opens real withdrawals to `userId`. A second clearance of the same user keeps the first. */
export async function clearWithdrawals(
  trx: Transaction<Database>,
  input: { userId: string; sourceId: string; at: number },
): Promise<void> {
  await trx
    .insertInto('withdrawal_clearances')
    .values({ user_id: input.userId, source_id: input.sourceId, cleared_at: new Date(input.at) })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

export async function isClearedForWithdrawal(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('withdrawal_clearances')
    .select('user_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of `userIds` are cleared: the admin's withdrawal list shows it per request. */
export async function clearedUsers(
  db: Kysely<Database> | Transaction<Database>,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('withdrawal_clearances')
    .select('user_id')
    .where('user_id', 'in', [...new Set(userIds)])
    .execute();
  return new Set(rows.map((r) => r.user_id));
}
