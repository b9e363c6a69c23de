import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';
import { openUserAccounts, transfer } from '@updown/wallet';
import {
  checkPassword,
  DEMO_GRANT_CENTS,
  normaliseEmail,
  normaliseName,
  validateEmail,
  validateName,
  type Role,
} from './auth.domain';
import type { AuthContext } from './auth.context';
import { EmailTaken, InvalidAccountDetails } from './auth.errors';
import { findUserByEmail, insertUser, type NewUser, type UserRow } from './users.repository';

/**
 * Creates a user with everything an account starts with, in one transaction: the row, the ledger
 * accounts, and the demo grant of 10,000.00 as a ledger entry from the demo issuance account (a
 * balance is a projection of the ledger, never a column default).
 */
export async function createAccount(db: Kysely<Database>, user: NewUser): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const row = await insertUser(trx, user);
    await openUserAccounts(trx, row.id);
    await transfer(trx, {
      kind: 'demo_grant',
      idempotencyKey: `demo_grant:${row.id}`,
      postings: [
        { account: { system: 'demo_issuance' }, amountCents: -DEMO_GRANT_CENTS },
        { account: { owner: row.id, type: 'demo' }, amountCents: DEMO_GRANT_CENTS },
      ],
      ref: { userId: row.id },
      occurredAt: user.createdAt,
    });
    return row;
  });
}

export interface AccountDetails {
  readonly email: string;
  readonly name: string;
  readonly password: string;
}

/** Normalises and checks registration details; the first broken rule is the error. */
export function checkAccountDetails(input: AccountDetails): { email: string; name: string } {
  const email = normaliseEmail(input.email);
  const name = normaliseName(input.name);
  for (const check of [validateName(name), validateEmail(email), checkPassword(input.password)]) {
    if (!check.ok) throw new InvalidAccountDetails(check.message);
  }
  return { email, name };
}

export async function registerUser(
  ctx: AuthContext,
  input: AccountDetails,
  role: Role = 'user',
): Promise<UserRow> {
  const { email, name } = checkAccountDetails(input);
  // Registration already says whether an email is taken (409), so checking first reveals nothing
  // new and saves a hash; the unique index still decides when two registrations race.
  if (await findUserByEmail(ctx.db, email)) throw new EmailTaken();
  const passwordHash = await ctx.hasher.hash(input.password);
  return createAccount(ctx.db, {
    id: randomUUID(),
    email,
    name,
    role,
    passwordHash,
    createdAt: new Date(ctx.clock.nowMs()),
  });
}
