import type { AuthUser } from './auth.domain';
import type { AccountsContext } from './accounts.context';
import { StepUpRequired, TwoFactorCodeRequired, Unauthenticated, WrongPassword } from './auth.errors';
import { bindingOf, type ClientInfo } from './client';
import { isStepUpFresh, sameClient, STEP_UP_TTL_MS } from './security.domain';
import { recordStepUp, sessionStepUp } from './security.repository';
import { withSignInThrottle } from './sign-in-throttle';
import { spendCode } from './totp-codes';
import { findUserById, type UserRow } from './users.repository';

/** The password, and the authenticator code when two-factor is on, sent to prove it is the owner. */
export interface StepUpProof {
  readonly password: string;
  readonly totpCode?: string | undefined;
}

function sessionOf(caller: AuthUser): string {
  // Access tokens without a session are refused before any route runs (auth.hooks.ts).
  if (caller.sessionId === undefined) throw new Unauthenticated('This token has no session; sign in again');
  return caller.sessionId;
}

/** The caller's account as stored; a token of an account that no longer exists is refused. */
export async function loadAccount(ctx: AccountsContext, userId: string): Promise<UserRow> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new Unauthenticated('Account no longer exists');
  return user;
}

/**
 * Checks the proof (the password under the sign-in throttle, so a stolen access token is no faster
 * way to guess it; then the code, spent so it cannot be replayed) and records the step-up on the
 * caller's session. `user` is the caller's account, already read by the action. Returns when the
 * step-up stops covering actions.
 */
export async function stepUp(
  ctx: AccountsContext,
  caller: AuthUser,
  user: UserRow,
  proof: StepUpProof,
  client: ClientInfo,
): Promise<number> {
  const sessionId = sessionOf(caller);
  try {
    const attempt = {
      subject: user.email,
      kind: 'password' as const,
      clientAddress: client.address,
      accountCeiling: { rule: 'none' as const },
    };
    await withSignInThrottle(ctx, attempt, async () =>
      (await ctx.hasher.verify(proof.password, user.password_hash))
        ? { ok: true as const, value: undefined }
        : { ok: false as const, error: new WrongPassword() },
    );
    if (user.twofa_enabled && user.twofa_secret !== null) {
      if (proof.totpCode === undefined) throw new TwoFactorCodeRequired();
      await spendCode(ctx, user, user.twofa_secret, proof.totpCode, client.address);
    }
  } catch (error) {
    ctx.metrics.stepUps.inc({ outcome: 'refused' });
    throw error;
  }
  const now = ctx.clock.nowMs();
  await recordStepUp(ctx.db, { sessionId, userId: user.id, at: new Date(now), binding: bindingOf(client) });
  ctx.metrics.stepUps.inc({ outcome: 'passed' });
  return now + STEP_UP_TTL_MS;
}

/**
 * The gate of every sensitive action: a proof sent with the action is checked (and recorded, so the
 * next few minutes need none); without one, the session must have stepped up in the last five
 * minutes, else 403 `STEP_UP_REQUIRED` and nothing changes.
 */
export async function requireStepUp(
  ctx: AccountsContext,
  caller: AuthUser,
  user: UserRow,
  proof: StepUpProof | undefined,
  client: ClientInfo,
): Promise<void> {
  if (proof !== undefined) {
    await stepUp(ctx, caller, user, proof, client);
    return;
  }
  await requireFreshStepUp(ctx, caller, client);
}

/**
 * Without a proof: the session's last step-up (a sign-in is one) must still be fresh and made by
 * this client. A refresh is not a step-up, so whoever renewed a stolen refresh token never has one.
 */
export async function requireFreshStepUp(
  ctx: AccountsContext,
  caller: AuthUser,
  client: ClientInfo,
): Promise<void> {
  const last = await sessionStepUp(ctx.db, sessionOf(caller), caller.id);
  const fresh =
    last !== undefined &&
    isStepUpFresh(last.at.getTime(), ctx.clock.nowMs()) &&
    sameClient(last.binding, bindingOf(client));
  if (!fresh) {
    ctx.metrics.stepUps.inc({ outcome: 'required' });
    throw new StepUpRequired();
  }
}
