import type { Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { grantFirstDepositBonus } from '../bonus/bonus.handler';
import { transferBatch, type BatchCommand } from '../ledger/ledger.repository';
import { lockAccounts } from '../locks/lock-protocol';
import { accountsOf } from './user-wallet';

/**
 * The money movement of a real deposit (at once, or on approval) and the first-deposit bonus it may
 * earn: the caller holds the user's wallet; this locks every account of both entries (the clearing
 * shard, `real`, `bonus`, the bonus-pool shard) in one `lockAccounts` and posts them together.
 */
export async function creditRealDeposit(
  trx: Transaction<Database>,
  input: { userId: string; amountCents: number; depositId: string; now: number },
): Promise<void> {
  const bonus = await grantFirstDepositBonus(trx, {
    userId: input.userId,
    depositCents: input.amountCents,
    depositId: input.depositId,
    now: input.now,
  });
  const deposit: BatchCommand = {
    kind: 'deposit',
    idempotencyKey: `deposit:${input.depositId}`,
    postings: [
      { account: { system: 'payments_clearing' }, amountCents: -input.amountCents },
      { account: { owner: input.userId, type: 'real' }, amountCents: input.amountCents },
    ],
    ref: { depositId: input.depositId },
    occurredAt: new Date(input.now),
  };
  const commands = bonus ? [deposit, bonus] : [deposit];
  await lockAccounts(trx, accountsOf(commands));
  await transferBatch(trx, commands);
}
