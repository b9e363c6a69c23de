import { randomUUID } from 'node:crypto';
import {
  checkPassword,
  normaliseEmail,
  normaliseName,
  validateEmail,
  validateName,
  type Role,
} from './auth.domain';
import type { AccountsContext } from './accounts.context';
import { EmailTaken, InvalidAccountDetails } from './auth.errors';
import { findUserByEmail, type UserRow } from './users.repository';

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
  ctx: AccountsContext,
  input: AccountDetails,
  role: Role = 'user',
): Promise<UserRow> {
  const { email, name } = checkAccountDetails(input);
  // Registration already says whether an email is taken (409), so checking first reveals nothing
  // new and saves a hash; the unique index still decides when two registrations race.
  if (await findUserByEmail(ctx.db, email)) throw new EmailTaken();
  const passwordHash = await ctx.hasher.hash(input.password);
  return ctx.openAccount({
    id: randomUUID(),
    email,
    name,
    role,
    passwordHash,
    createdAt: new Date(ctx.clock.nowMs()),
  });
}
