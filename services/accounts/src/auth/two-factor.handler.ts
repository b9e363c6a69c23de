import { generateSecret, generateURI } from 'otplib';
import QRCode from 'qrcode';
import type { TwoFactorSetupResponse } from '@updown/schemas/api';
import type { AuthUser } from './auth.domain';
import type { AccountsContext } from './accounts.context';
import { TwoFactorState, Unauthenticated } from './auth.errors';
import type { ClientInfo } from './client';
import { rememberSignIn } from './sign-in-throttle';
import { recordSecurityEvent, startSession, type SessionTokens } from './sessions.handler';
import { loadAccount, requireFreshStepUp, requireStepUp, stepUp, type StepUpProof } from './step-up.handler';
import { spendCode } from './totp-codes';
import { disableTwoFactor, enableTwoFactor, setPendingTwoFactorSecret } from './users.repository';

/** The issuer authenticator apps show next to the account. */
export const TOTP_ISSUER = 'Updown';

/**
 * Starts setup: a new pending secret (replacing an unconfirmed one), its URL and a QR code. Needs a
 * step-up: a session alone (a stolen refresh token) must not be able to bind its own authenticator.
 */
export async function setupTwoFactor(
  ctx: AccountsContext,
  caller: AuthUser,
  proof: StepUpProof | undefined,
  client: ClientInfo,
): Promise<TwoFactorSetupResponse> {
  const user = await loadAccount(ctx, caller.id);
  if (user.twofa_enabled) throw new TwoFactorState('TWO_FACTOR_ALREADY_ENABLED');
  await requireStepUp(ctx, caller, user, proof, client);
  const secret = generateSecret();
  await setPendingTwoFactorSecret(ctx.db, user.id, secret, new Date(ctx.clock.nowMs()));
  const otpauthUrl = generateURI({ issuer: TOTP_ISSUER, label: user.email, secret });
  const qrCode = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
  return { secret, otpauth_url: otpauthUrl, qr_code: qrCode };
}

/**
 * Confirms setup with a first code from the app, which proves the secret was stored there; needs a
 * step-up like the setup (the one the setup made covers it for five minutes).
 */
export async function enableTwoFactorWithCode(
  ctx: AccountsContext,
  caller: AuthUser,
  code: string,
  proof: StepUpProof | undefined,
  client: ClientInfo,
): Promise<void> {
  const user = await loadAccount(ctx, caller.id);
  if (user.twofa_enabled) throw new TwoFactorState('TWO_FACTOR_ALREADY_ENABLED');
  const pending = user.twofa_pending_secret;
  if (pending === null) throw new TwoFactorState('TWO_FACTOR_NOT_SET_UP');
  await requireStepUp(ctx, caller, user, proof, client);
  const step = await spendCode(ctx, user, pending, code, client.address);
  const now = ctx.clock.nowMs();
  const enabled = await ctx.db.transaction().execute(async (trx) => {
    if (!(await enableTwoFactor(trx, user.id, pending, step, new Date(now)))) return false;
    await recordSecurityEvent(trx, caller, 'two_factor_enabled', now, client);
    return true;
  });
  // Another request enabled it or started a new setup between our read and this write.
  if (!enabled) throw new TwoFactorState('TWO_FACTOR_NOT_SET_UP');
}

/**
 * The second step of a sign-in: the code turns the temporary token into a session, and the client
 * address becomes one the account signed in from.
 */
export async function verifyTwoFactorLogin(
  ctx: AccountsContext,
  userId: string,
  code: string,
  client: ClientInfo,
): Promise<SessionTokens> {
  const user = await loadAccount(ctx, userId);
  if (!user.twofa_enabled || user.twofa_secret === null) {
    throw new Unauthenticated('Two-factor verification is not pending; sign in again');
  }
  await spendCode(ctx, user, user.twofa_secret, code, client.address);
  const session = await startSession(ctx, user, client);
  await rememberSignIn(ctx, user.id, client.address);
  return session;
}

/**
 * Turning 2FA off needs a current code and a step-up, so neither a stolen access token nor a
 * stolen session can remove it. With the password in the request, the body's code is the step-up's
 * code (checked and spent once); without it, the session's step-up must be fresh and the code is a
 * new one.
 */
export async function disableTwoFactorWithCode(
  ctx: AccountsContext,
  caller: AuthUser,
  input: { code: string; password: string | undefined },
  client: ClientInfo,
): Promise<void> {
  const user = await loadAccount(ctx, caller.id);
  if (!user.twofa_enabled || user.twofa_secret === null) throw new TwoFactorState('TWO_FACTOR_NOT_ENABLED');
  if (input.password !== undefined) {
    await stepUp(ctx, caller, user, { password: input.password, totpCode: input.code }, client);
  } else {
    await requireFreshStepUp(ctx, caller, client);
    await spendCode(ctx, user, user.twofa_secret, input.code, client.address);
  }
  const now = ctx.clock.nowMs();
  await ctx.db.transaction().execute(async (trx) => {
    await disableTwoFactor(trx, user.id, new Date(now));
    await recordSecurityEvent(trx, caller, 'two_factor_disabled', now, client);
  });
}
