import type { Kysely } from 'kysely';
import { createUser, type NewUser, type OpenAccount, type UserRow } from '@updown/accounts';
import type { Database } from '@updown/runtime';
import { openWallet } from '@updown/wallet';

/**
 * Opens an account, in one transaction: accounts' `createUser` (the user row), then the wallet's
 * `openWallet` (the ledger accounts and the demo grant). Accounts sit below the wallet and never
 * call it; the gateway, which serves registration, Google sign-in and the admin bootstrap, composes
 * the two and hands the result to the accounts commands as their `openAccount`.
 */
export function openAccount(db: Kysely<Database>, user: NewUser): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const row = await createUser(trx, user);
    await openWallet(trx, row.id, user.createdAt);
    return row;
  });
}

/** `openAccount` on one database, as the accounts commands and the admin bootstrap take it. */
export function accountOpener(db: Kysely<Database>): OpenAccount {
  return (user) => openAccount(db, user);
}
