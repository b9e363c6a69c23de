import type { AuthUser } from './auth.domain';
import { checkPassword } from './auth.domain';
import type { AuthContext } from './auth.context';
import { InvalidAccountDetails, Unauthenticated, WrongPassword } from './auth.errors';
import { withSignInThrottle } from './sign-in-throttle';
import { revokeUserSessions } from './sessions.repository';
import { findUserById, setPasswordHash } from './users.repository';

/**
 * A signed-in user changes their password. The current password is checked under the same
 * throttle as sign-ins (a stolen access token is not a way to guess it faster), the new one must
 * meet the account rules and differ from it, and every other session of the account ends in the
 * same transaction as the new hash: whoever else held a session (or stole one) is signed out, and
 * their access tokens are refused from the next request. Returns how many sessions ended.
 */
export async function changePassword(
  ctx: AuthContext,
  caller: AuthUser,
  input: { current_password: string; new_password: string },
  clientAddress: string,
): Promise<number> {
  const user = await findUserById(ctx.db, caller.id);
  if (!user) throw new Unauthenticated('Account no longer exists');
  const attempt = {
    subject: user.email,
    kind: 'password' as const,
    clientAddress,
    accountCeiling: { rule: 'none' as const },
  };
  await withSignInThrottle(ctx, attempt, async () =>
    (await ctx.hasher.verify(input.current_password, user.password_hash))
      ? { ok: true as const, value: undefined }
      : { ok: false as const, error: new WrongPassword() },
  );
  const policy = checkPassword(input.new_password);
  if (!policy.ok) throw new InvalidAccountDetails(policy.message);
  if (input.new_password === input.current_password) {
    throw new InvalidAccountDetails('The new password must differ from the current one');
  }
  const hash = await ctx.hasher.hash(input.new_password);
  const now = ctx.clock.now();
  const ended = await ctx.db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, user.id, hash, new Date(now));
    return revokeUserSessions(trx, user.id, 'password_change', new Date(now), caller.sessionId);
  });
  ctx.endedSessions.add(ended, now);
  return ended.length;
}
