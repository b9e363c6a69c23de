import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { accountCode, userAccountCode } from '../ledger/ledger.domain';
import { transfer, type BatchCommand } from '../ledger/ledger.repository';
import { firstDepositBonus } from './bonus.domain';
import { closeActiveBonus, insertBonus, latestBonus } from './bonus.repository';

/**
 * Bonus steps that run inside a caller's transaction (the deposit, withdrawal, cancel or expiry
 * that triggers them), so the bonus row and its ledger entry commit or roll back with it. The
 * caller holds the user's wallet lock, and the locks these steps need, through the lock protocol.
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
      { account: { system: 'bonus_pool' }, amountCents: -grant.amountCents },
      { account: { owner: input.userId, type: 'bonus' }, amountCents: grant.amountCents },
    ],
    ref: { bonusId, depositId: input.depositId },
    occurredAt: new Date(input.now),
  };
}

const forfeitKey = (bonusId: string) => `bonus:${bonusId}:forfeit`;

/** The accounts ending this bonus posts to: the user's `bonus` and the bonus-pool shard of the entry. */
export function bonusEndAccounts(userId: string, bonusId: string): string[] {
  return [userAccountCode(userId, 'bonus'), accountCode({ system: 'bonus_pool' }, forfeitKey(bonusId))];
}

/**
 * Ends a bonus the caller locked (level 3) as `forfeited` (cancel, withdrawal) or `expired`, and
 * returns its remaining bonus balance to the bonus pool. `balances` are those the caller's
 * `lockAccounts` returned, which included `bonusEndAccounts`. False when it was no longer active.
 *
 * Bonus stakes still in play return to `bonus` when their trades settle; the expiry job's sweep
 * returns those later (see `sweepOrphanBonusBalances`).
 */
export async function endLockedBonus(
  trx: Transaction<Database>,
  input: {
    userId: string;
    bonusId: string;
    status: 'forfeited' | 'expired';
    now: number;
    balances: ReadonlyMap<string, number>;
  },
): Promise<boolean> {
  if (!(await closeActiveBonus(trx, input.bonusId, input.status, new Date(input.now)))) return false;
  const remaining = input.balances.get(userAccountCode(input.userId, 'bonus')) ?? 0;
  if (remaining > 0) {
    await transfer(trx, {
      kind: 'bonus_forfeit',
      idempotencyKey: forfeitKey(input.bonusId),
      postings: [
        { account: { owner: input.userId, type: 'bonus' }, amountCents: -remaining },
        { account: { system: 'bonus_pool' }, amountCents: remaining },
      ],
      ref: { bonusId: input.bonusId, reason: input.status },
      occurredAt: new Date(input.now),
    });
  }
  return true;
}
