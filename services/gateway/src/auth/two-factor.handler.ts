import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { TwoFactorSetupResponse } from '@updown/schemas/api';
import { isFreshTotpStep, isTotpCodeShape, TOTP_PERIOD_SEC } from './auth.domain';
import type { AuthContext } from './auth.context';
import { InvalidTwoFactorCode, TwoFactorCodeUsed, TwoFactorState, Unauthenticated } from './auth.errors';
import { rememberSignIn, withSignInThrottle, type AttemptResult } from './sign-in-throttle';
import { startSession, type SessionTokens } from './sessions.handler';
import {
  claimTotpStep,
  disableTwoFactor,
  enableTwoFactor,
  findUserById,
  setPendingTwoFactorSecret,
  type UserRow,
} from './users.repository';

/** The issuer authenticator apps show next to the account. */
export const TOTP_ISSUER = 'Updown';

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

async function loadUser(ctx: AuthContext, userId: string): Promise<UserRow> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new Unauthenticated('Account no longer exists');
  return user;
}

/**
 * Checks a code under the sign-in throttle (wrong codes count like wrong passwords, by user id and
 * client address) and spends its time step, so the same code is never accepted twice even by two
 * requests at the same instant.
 */
async function spendCode(
  ctx: AuthContext,
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
    const step = await matchTotp(secret, code, ctx.clock.now());
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
export async function spendSignInCode(ctx: AuthContext, user: UserRow, code: string): Promise<boolean> {
  if (!user.twofa_enabled || user.twofa_secret === null) return false;
  const step = await matchTotp(user.twofa_secret, code, ctx.clock.now());
  if (step === undefined || !isFreshTotpStep(user.twofa_last_step, step)) return false;
  return claimTotpStep(ctx.db, user.id, step);
}

/** Starts setup: a new pending secret (replacing an unconfirmed one), its URL and a QR code. */
export async function setupTwoFactor(ctx: AuthContext, userId: string): Promise<TwoFactorSetupResponse> {
  const user = await loadUser(ctx, userId);
  if (user.twofa_enabled) throw new TwoFactorState('TWO_FACTOR_ALREADY_ENABLED');
  const secret = generateSecret();
  await setPendingTwoFactorSecret(ctx.db, user.id, secret, new Date(ctx.clock.now()));
  const otpauthUrl = generateURI({ issuer: TOTP_ISSUER, label: user.email, secret });
  const qrCode = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
  return { secret, otpauth_url: otpauthUrl, qr_code: qrCode };
}

/** Confirms setup with a first code from the app, which proves the secret was stored there. */
export async function enableTwoFactorWithCode(
  ctx: AuthContext,
  userId: string,
  code: string,
  clientAddress: string,
): Promise<void> {
  const user = await loadUser(ctx, userId);
  if (user.twofa_enabled) throw new TwoFactorState('TWO_FACTOR_ALREADY_ENABLED');
  const pending = user.twofa_pending_secret;
  if (pending === null) throw new TwoFactorState('TWO_FACTOR_NOT_SET_UP');
  const step = await spendCode(ctx, user, pending, code, clientAddress);
  if (!(await enableTwoFactor(ctx.db, user.id, pending, step, new Date(ctx.clock.now())))) {
    // Another request enabled it or started a new setup between our read and this write.
    throw new TwoFactorState('TWO_FACTOR_NOT_SET_UP');
  }
}

/**
 * The second step of a sign-in: the code turns the temporary token into a session, and the client
 * address becomes one the account signed in from.
 */
export async function verifyTwoFactorLogin(
  ctx: AuthContext,
  userId: string,
  code: string,
  clientAddress: string,
): Promise<SessionTokens> {
  const user = await loadUser(ctx, userId);
  if (!user.twofa_enabled || user.twofa_secret === null) {
    throw new Unauthenticated('Two-factor verification is not pending; sign in again');
  }
  await spendCode(ctx, user, user.twofa_secret, code, clientAddress);
  const session = await startSession(ctx, user);
  await rememberSignIn(ctx, user.id, clientAddress);
  return session;
}

/** Turning 2FA off needs a current code, so a stolen access token alone cannot remove it. */
export async function disableTwoFactorWithCode(
  ctx: AuthContext,
  userId: string,
  code: string,
  clientAddress: string,
): Promise<void> {
  const user = await loadUser(ctx, userId);
  if (!user.twofa_enabled || user.twofa_secret === null) throw new TwoFactorState('TWO_FACTOR_NOT_ENABLED');
  await spendCode(ctx, user, user.twofa_secret, code, clientAddress);
  await disableTwoFactor(ctx.db, user.id, new Date(ctx.clock.now()));
}
