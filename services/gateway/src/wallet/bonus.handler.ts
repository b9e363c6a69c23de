import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { accountCode, transfer, userAccountCode, type BatchCommand } from '@updown/wallet';
import { firstDepositBonus } from './bonus.domain';
import { closeActiveBonus, insertBonus, lockAccountBalances, latestBonus } from './wallet.repository';

/**
 * Bonus steps that run inside a caller's transaction (the deposit, withdrawal or cancel that
 * triggers them), so the bonus row and its ledger entry commit or roll back with it. The caller
 * holds the user's row lock (`lockUser`).
 */

/**
 * Records the first-deposit bonus a real deposit earns, if it qualifies, and returns the ledger
 * transfer that credits it, for the caller to post together with the deposit (undefined when the
 * deposit earns none).
 */
export async function grantFirstDepositBonus(
  trx: Transaction<Database>,
  input: { userId: string; depositCents: number; depositId: string; now: number },
): Promise<BatchCommand | undefined> {
  const previous = await latestBonus(trx, input.userId);
  const grant = firstDepositBonus(
    input.depositCents,
    { bonusUsed: previous !== undefined, hasActiveBonus: previous?.status === 'active' },
    input.now,
  );
  if (!grant) return undefined;
  const bonusId = randomUUID();
  await insertBonus(trx, {
    id: bonusId,
    userId: input.userId,
    amountCents: grant.amountCents,
    turnoverRequiredCents: grant.turnoverRequiredCents,
    creditedAt: new Date(input.now),
    expiresAt: new Date(grant.expiresAtMs),
  });
  return {
    kind: 'bonus_credit',
    idempotencyKey: `bonus:${bonusId}:credit`,
    postings: [
      { account: { system: 'bonus_pool' }, amount: -grant.amountCents },
      { account: { owner: input.userId, type: 'bonus' }, amount: grant.amountCents },
    ],
    ref: { bonusId, depositId: input.depositId },
    occurredAt: new Date(input.now),
  };
}

/**
 * Ends the user's active bonus as `forfeited` (cancel, withdrawal) or `expired`, and returns its
 * remaining bonus balance to the bonus pool. Returns the bonus id, or undefined when none was active.
 *
 * The bonus row is updated before the accounts are locked, the order settlement uses, so the two
 * cannot deadlock. Bonus stakes still in play return to `bonus` when their trades settle; the
 * expiry job's sweep returns those later (see `sweepOrphanBonusBalances`).
 */
export async function endActiveBonus(
  trx: Transaction<Database>,
  input: { userId: string; status: 'forfeited' | 'expired'; now: number; bonusId?: string },
): Promise<string | undefined> {
  const closed = await closeActiveBonus(trx, input.userId, input.status, new Date(input.now), input.bonusId);
  if (!closed) return undefined;
  const key = `bonus:${closed.id}:forfeit`;
  const bonusCode = userAccountCode(input.userId, 'bonus');
  const balances = await lockAccountBalances(trx, [bonusCode, accountCode({ system: 'bonus_pool' }, key)]);
  const remaining = balances.get(bonusCode) ?? 0;
  if (remaining > 0) {
    await transfer(trx, {
      kind: 'bonus_forfeit',
      idempotencyKey: key,
      postings: [
        { account: { owner: input.userId, type: 'bonus' }, amount: -remaining },
        { account: { system: 'bonus_pool' }, amount: remaining },
      ],
      ref: { bonusId: closed.id, reason: input.status },
      occurredAt: new Date(input.now),
    });
  }
  return closed.id;
}
