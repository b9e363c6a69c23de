import { verify } from 'otplib';
import { isFreshTotpStep, isTotpCodeShape, TOTP_PERIOD_SEC } from './auth.domain';
import type { AccountsContext } from './accounts.context';
import { InvalidTwoFactorCode, TwoFactorCodeUsed } from './auth.errors';
import { withSignInThrottle, type AttemptResult } from './sign-in-throttle';
import { claimTotpStep, type UserRow } from './users.repository';

/** Authenticator codes: matching one to a secret, and spending it so it is accepted once. */

/**
 * The time step a code belongs to, or undefined. One step either side is accepted for clock drift
 * between the phone and the server (RFC 6238 §5.2).
 */
export async function matchTotp(secret: string, code: string, nowMs: number): Promise<number | undefined> {
  if (!isTotpCodeShape(code)) return undefined;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: TOTP_PERIOD_SEC,
  });
  // The functional API types TOTP and HOTP results as one union; only TOTP has a time step.
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/**
 * Checks a code under the sign-in throttle (wrong codes count like wrong passwords, by user id and
 * client address) and spends its time step, so the same code is never accepted twice even by two
 * requests at the same instant.
 */
export async function spendCode(
  ctx: AccountsContext,
  user: UserRow,
  secret: string,
  code: string,
  clientAddress: string,
): Promise<number> {
  const attempt = {
    subject: user.id,
    kind: 'totp' as const,
    clientAddress,
    accountCeiling: { rule: 'refuse' as const },
  };
  return withSignInThrottle(ctx, attempt, async (): Promise<AttemptResult<number>> => {
    const step = await matchTotp(secret, code, ctx.clock.nowMs());
    if (step === undefined) return { ok: false, error: new InvalidTwoFactorCode() };
    if (!isFreshTotpStep(user.twofa_last_step, step)) return { ok: false, error: new TwoFactorCodeUsed() };
    if (user.twofa_enabled && !(await claimTotpStep(ctx.db, user.id, step))) {
      return { ok: false, error: new TwoFactorCodeUsed() };
    }
    return { ok: true, value: step };
  });
}

/**
 * A code sent with the password at sign-in (the extra step of the sign-in throttle), checked and
 * spent like the second step's; the caller's throttle counts a failure. An account without
 * two-factor has no right code, so the answer cannot tell it from a wrong one.
 */
export async function spendSignInCode(ctx: AccountsContext, user: UserRow, code: string): Promise<boolean> {
  if (!user.twofa_enabled || user.twofa_secret === null) return false;
  const step = await matchTotp(user.twofa_secret, code, ctx.clock.nowMs());
  if (step === undefined || !isFreshTotpStep(user.twofa_last_step, step)) return false;
  return claimTotpStep(ctx.db, user.id, step);
}
