import { normaliseEmail } from './auth.domain';
import type { AccountsContext } from './accounts.context';
import { InvalidCredentials } from './auth.errors';
import { clientSeen, type ClientInfo } from './client';
import { isFailureBurst } from './security.domain';
import { insertSecurityEvent } from './security.repository';
import { rememberSignIn, withSignInThrottle } from './sign-in-throttle';
import { signIn, startSession, type SignInResult } from './sessions.handler';
import { spendSignInCode } from './totp-codes';
import { findUserByEmail, setPasswordHash, type UserRow } from './users.repository';

/**
 * Email and password sign-in, under the sign-in throttle. An unknown email is hashed against a
 * dummy hash and throttled like a known one, so neither the answer, its timing nor a 429 tells
 * whether an account exists.
 *
 * `totp_code`, when sent, is checked with the password: both right (and the code not used before)
 * start the session at once, without the second step. It is the extra step the throttle asks of an
 * unknown address once the account had too many failures. An account without two-factor has no
 * right code, so a sent code fails there, with the same answer as a wrong password.
 */
export async function passwordLogin(
  ctx: AccountsContext,
  input: { email: string; password: string; totp_code?: string | undefined },
  client: ClientInfo,
): Promise<SignInResult> {
  const email = normaliseEmail(input.email);
  const code = input.totp_code;
  const codeSent = code !== undefined;
  const attempt = {
    subject: email,
    kind: 'password' as const,
    clientAddress: client.address,
    accountCeiling: { rule: 'extra_step' as const, codeSent },
  };
  let account: UserRow | undefined;
  const toldOfBurst = async (pairFailures: number): Promise<void> => {
    if (account === undefined || !isFailureBurst(pairFailures, ctx.policy.throttle.freeFailures)) return;
    const seen = clientSeen(client);
    const at = new Date(ctx.clock.nowMs());
    await insertSecurityEvent(ctx.db, {
      userId: account.id,
      kind: 'sign_in_failures',
      at,
      sessionId: null,
      client: seen,
    });
  };
  const user = await withSignInThrottle(
    ctx,
    attempt,
    async () => {
      const found = await findUserByEmail(ctx.db, email);
      account = found;
      const matches = found
        ? await ctx.hasher.verify(input.password, found.password_hash)
        : await ctx.hasher.verifyNobody(input.password);
      const refused = { ok: false as const, error: new InvalidCredentials(codeSent) };
      if (!found || !matches) return refused;
      // The code is looked at only after the right password, so a wrong password never spends it.
      if (code !== undefined && !(await spendSignInCode(ctx, found, code))) return refused;
      return { ok: true as const, value: found };
    },
    toldOfBurst,
  );
  await upgradeHash(ctx, user, input.password);
  const answer = codeSent
    ? { ...(await startSession(ctx, user, client)), requires_2fa: false }
    : await signIn(ctx, user, client);
  if (!answer.requires_2fa) await rememberSignIn(ctx, user.id, client.address);
  return answer;
}

/** Re-hashes with the current parameters after they were raised; the password is at hand only now. */
async function upgradeHash(ctx: AccountsContext, user: UserRow, password: string): Promise<void> {
  if (!ctx.hasher.needsRehash(user.password_hash)) return;
  await setPasswordHash(ctx.db, user.id, await ctx.hasher.hash(password), new Date(ctx.clock.nowMs()));
}
