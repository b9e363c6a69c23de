import { randomUUID } from 'node:crypto';
import type { LoginResponse, TokenPairResponse } from '@updown/schemas/api';
import { accessClaims, decideRefresh, twoFactorClaims, type AuthUser } from './auth.domain';
import type { AuthContext } from './auth.context';
import { InvalidRefreshToken } from './auth.errors';
import {
  findFamilyOfToken,
  insertRefreshToken,
  lockRefreshToken,
  markRotated,
  pruneExpiredRefreshTokens,
  revokeFamily,
  type RefreshTokenRow,
} from './sessions.repository';
import { hashRefreshToken, newRefreshToken } from './tokens';
import { findUserById, type UserRow } from './users.repository';

/** Expired refresh tokens deleted each time a session starts: bounded housekeeping. */
const PRUNE_BATCH = 100;

function accessToken(ctx: AuthContext, user: AuthUser, now: number): string {
  return ctx.signer.sign(accessClaims(user, now, ctx.policy.accessTokenTtlSec));
}

/** A new session: an access token and the first refresh token of a new family. */
export async function startSession(ctx: AuthContext, user: AuthUser): Promise<TokenPairResponse> {
  const now = ctx.clock.now();
  const refreshToken = newRefreshToken();
  await insertRefreshToken(ctx.db, {
    id: randomUUID(),
    userId: user.id,
    familyId: randomUUID(),
    parentId: null,
    tokenHash: hashRefreshToken(refreshToken),
    createdAt: new Date(now),
    expiresAt: new Date(now + ctx.policy.refreshTokenTtlSec * 1000),
  });
  await pruneExpiredRefreshTokens(ctx.db, new Date(now), PRUNE_BATCH);
  return { access_token: accessToken(ctx, user, now), refresh_token: refreshToken };
}

/**
 * The answer to a correct first factor. With two-factor on, only a 5-minute token that
 * `/api/2fa/verify` accepts, and an empty refresh token: a session (and its refresh token) starts
 * only once the code is checked, so a stolen password alone never yields a refreshable session.
 */
export async function signIn(ctx: AuthContext, user: UserRow): Promise<LoginResponse> {
  if (user.twofa_enabled) {
    const token = ctx.signer.sign(twoFactorClaims(user.id, ctx.clock.now()));
    return { access_token: token, refresh_token: '', requires_2fa: true };
  }
  return { ...(await startSession(ctx, user)), requires_2fa: false };
}

type RefreshOutcome =
  | { ok: true; user: UserRow; refreshToken: string }
  | { ok: false; reused?: { userId: string; familyId: string } };

/**
 * Exchanges a refresh token for a new access token and the next refresh token of its family. The
 * family revocation on reuse commits before the 401 is answered (the transaction returns rather
 * than throws), so the alarm is not rolled back with the refusal.
 */
export async function refreshSession(ctx: AuthContext, presented: string): Promise<TokenPairResponse> {
  const now = ctx.clock.now();
  const outcome = await ctx.db.transaction().execute(async (trx): Promise<RefreshOutcome> => {
    const row = await lockRefreshToken(trx, hashRefreshToken(presented));
    const decision = decideRefresh(row && tokenState(row), now);
    if (!row || decision.action === 'reject') return { ok: false };
    if (decision.action === 'revoke_family') {
      await revokeFamily(trx, row.family_id, 'reuse', new Date(now));
      return { ok: false, reused: { userId: row.user_id, familyId: row.family_id } };
    }
    const user = await findUserById(trx, row.user_id);
    if (!user) return { ok: false };
    await markRotated(trx, row.id, new Date(now));
    const refreshToken = newRefreshToken();
    await insertRefreshToken(trx, {
      id: randomUUID(),
      userId: row.user_id,
      familyId: row.family_id,
      parentId: row.id,
      tokenHash: hashRefreshToken(refreshToken),
      createdAt: new Date(now),
      expiresAt: new Date(now + ctx.policy.refreshTokenTtlSec * 1000),
    });
    return { ok: true, user, refreshToken };
  });
  if (!outcome.ok) {
    if (outcome.reused) {
      ctx.logger.warn(
        outcome.reused,
        'a spent refresh token was presented again; its session family is revoked',
      );
    }
    throw new InvalidRefreshToken();
  }
  return { access_token: accessToken(ctx, outcome.user, now), refresh_token: outcome.refreshToken };
}

/** Ends the session the token belongs to (its whole family). Unknown tokens are ignored. */
export async function endSession(ctx: AuthContext, presented: string): Promise<void> {
  const token = await findFamilyOfToken(ctx.db, hashRefreshToken(presented));
  if (token) await revokeFamily(ctx.db, token.family_id, 'logout', new Date(ctx.clock.now()));
}

function tokenState(row: RefreshTokenRow) {
  return {
    expiresAt: row.expires_at.getTime(),
    rotatedAt: row.rotated_at?.getTime() ?? null,
    revokedAt: row.revoked_at?.getTime() ?? null,
  };
}
