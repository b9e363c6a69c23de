import { randomBytes, randomUUID } from 'node:crypto';
import type { GoogleLoginRequest, LoginResponse } from '@updown/schemas/api';
import { googleIdentity, type GoogleIdentity } from './auth.domain';
import type { AccountsContext } from './accounts.context';
import { EmailTaken, GoogleEmailHasPassword, GoogleNotConfigured, InvalidGoogleToken } from './auth.errors';
import type { ClientInfo } from './client';
import { signIn } from './sessions.handler';
import { findUserByEmail, findUserByGoogleSub, type UserRow } from './users.repository';

/**
 * Google sign-in: the body's email is never trusted; the account is the one the verified ID token
 * names. A first sign-in creates the account with a random password nobody knows. The answer has
 * the shape of a password login and respects two-factor.
 */
export async function googleLogin(
  ctx: AccountsContext,
  body: GoogleLoginRequest,
  client: ClientInfo,
): Promise<LoginResponse> {
  if (!ctx.google) throw new GoogleNotConfigured();
  const claims = await ctx.google.verify(body.session_token, ctx.clock.nowMs());
  const checked = googleIdentity(claims, body.name ?? undefined);
  if (!checked.ok) throw new InvalidGoogleToken(checked.message);
  const user = await findOrCreate(ctx, checked.identity);
  return signIn(ctx, user, client);
}

async function findOrCreate(ctx: AccountsContext, identity: GoogleIdentity): Promise<UserRow> {
  const linked = await findUserByGoogleSub(ctx.db, identity.sub);
  if (linked) return linked;
  const byEmail = await findUserByEmail(ctx.db, identity.email);
  if (byEmail) refuseExisting(byEmail);
  const passwordHash = await ctx.hasher.hash(randomBytes(32).toString('base64url'));
  try {
    return await ctx.openAccount({
      id: randomUUID(),
      email: identity.email,
      name: identity.name,
      role: 'user',
      passwordHash,
      googleSub: identity.sub,
      createdAt: new Date(ctx.clock.nowMs()),
    });
  } catch (error) {
    // Two first sign-ins of one Google account raced (two tabs): the other created it.
    if (!(error instanceof EmailTaken)) throw error;
    const created = await findUserByGoogleSub(ctx.db, identity.sub);
    if (!created) throw error;
    return created;
  }
}

/**
 * An account with this email exists but is not linked to this Google subject. One made with a
 * password is refused (see `GoogleEmailHasPassword`); one linked to another Google account (the
 * address changed hands at Google) is refused too, since it belongs to that account's owner.
 */
function refuseExisting(user: UserRow): never {
  throw user.google_sub === null ? new GoogleEmailHasPassword() : new EmailTaken();
}
