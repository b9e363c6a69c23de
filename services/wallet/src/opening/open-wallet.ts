import type { Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { openUserAccounts, transfer } from '../ledger/ledger.repository';

/** New users receive 10,000.00 on their demo account (DESIGN §2), in cents. */
export const DEMO_GRANT_CENTS = 1_000_000;

/**
 * Opens a new user's wallet, inside the transaction that creates the user (the composition root's
 * open-account command, after accounts' `createUser`): every ledger account at zero, then the demo
 * grant as a ledger entry from the demo issuance account (a balance is a projection of the ledger,
 * never a column default). Idempotent: the accounts already exist and the grant's key is the user's.
 */
export async function openWallet(trx: Transaction<Database>, userId: string, openedAt: Date): Promise<void> {
  await openUserAccounts(trx, userId);
  await transfer(trx, {
    kind: 'demo_grant',
    idempotencyKey: `demo_grant:${userId}`,
    postings: [
      { account: { system: 'demo_issuance' }, amountCents: -DEMO_GRANT_CENTS },
      { account: { owner: userId, type: 'demo' }, amountCents: DEMO_GRANT_CENTS },
    ],
    ref: { userId },
    occurredAt: openedAt,
  });
}
