import type { Transaction } from 'kysely';
import { DomainError, type Database } from '@updown/runtime';
import { accountCode, userAccountCode, type TransferCommand } from '../ledger/ledger.domain';
import { lockWallets } from '../locks/lock-protocol';

class UserNotFound extends DomainError {
  constructor() {
    super('NOT_FOUND', 'User not found');
  }
}

/**
 * Level 1 of the lock protocol for one user's wallet command, refusing a user who has no wallet
 * (no ledger accounts: the user does not exist) before anything is written.
 */
export async function lockUserWallet(trx: Transaction<Database>, userId: string): Promise<void> {
  await lockWallets(trx, [userId]);
  const account = await trx
    .selectFrom('ledger_accounts')
    .select('id')
    .where('code', '=', userAccountCode(userId, 'real'))
    .executeTakeFirst();
  if (!account) throw new UserNotFound();
}

/** The codes of every account these transfers post to, for the command's one `lockAccounts`. */
export function accountsOf(commands: readonly TransferCommand[]): string[] {
  return [
    ...new Set(
      commands.flatMap((command) =>
        command.postings.map((posting) => accountCode(posting.account, command.idempotencyKey)),
      ),
    ),
  ];
}
