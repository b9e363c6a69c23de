import type { AuthUser } from './auth.domain';
import { checkPassword } from './auth.domain';
import type { AccountsContext } from './accounts.context';
import { InvalidAccountDetails } from './auth.errors';
import type { ClientInfo } from './client';
import { recordSecurityEvent } from './sessions.handler';
import { revokeUserSessions } from './sessions.repository';
import { loadAccount, stepUp } from './step-up.handler';
import { setPasswordHash } from './users.repository';

/**
 * A signed-in user changes their password. The current password (and, with two-factor on, the
 * authenticator code) is the step-up: checked under the same throttle as sign-ins (a stolen access
 * token is not a way to guess it faster). The new one must meet the account rules and differ from
 * it, and every other session of the account ends in the same transaction as the new hash: whoever
 * else held a session (or stole one) is signed out, and their access tokens are refused from the
 * next request. Returns how many sessions ended.
 */
export async function changePassword(
  ctx: AccountsContext,
  caller: AuthUser,
  input: { current_password: string; new_password: string; totp_code?: string | undefined },
  client: ClientInfo,
): Promise<number> {
  // The new password's rules first: a refused change must not spend the authenticator code.
  const policy = checkPassword(input.new_password);
  if (!policy.ok) throw new InvalidAccountDetails(policy.message);
  if (input.new_password === input.current_password) {
    throw new InvalidAccountDetails('The new password must differ from the current one');
  }
  const proof = { password: input.current_password, totpCode: input.totp_code };
  const user = await loadAccount(ctx, caller.id);
  await stepUp(ctx, caller, user, proof, client);
  const hash = await ctx.hasher.hash(input.new_password);
  const now = ctx.clock.nowMs();
  const ended = await ctx.db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, user.id, hash, new Date(now));
    await recordSecurityEvent(trx, caller, 'password_changed', now, client);
    return revokeUserSessions(trx, user.id, 'password_change', new Date(now), caller.sessionId);
  });
  ctx.endedSessions.add(ended, now);
  return ended.length;
}
