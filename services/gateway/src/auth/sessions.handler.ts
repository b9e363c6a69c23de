import { randomUUID } from 'node:crypto';
import type { LoginResponse, TokenPairResponse } from '@updown/schemas/api';
import {
  accessClaims,
  decideRefresh,
  twoFactorClaims,
  type AuthUser,
  type RefreshTokenState,
} from './auth.domain';
import type { AuthContext } from './auth.context';
import { CsrfRejected, InvalidRefreshToken } from './auth.errors';
import { csrfMatches } from './session-cookies';
import {
  findFamilyOfToken,
  insertRefreshToken,
  lockRefreshToken,
  lockUnusedSuccessor,
  markRotated,
  pruneExpiredRefreshTokens,
  revokeFamily,
  revokeUserSessions,
  type RefreshTokenRow,
} from './sessions.repository';
import { hashRefreshToken, newRefreshToken } from './tokens';
import { findUserById, type UserRow } from './users.repository';

/** Expired refresh tokens deleted each time a session starts: bounded housekeeping. */
const PRUNE_BATCH = 100;

/** A session's tokens and its id (the refresh token family), which the cookie form needs. */
export interface SessionTokens extends TokenPairResponse {
  readonly session_id: string;
}

/** A sign-in's answer; `session_id` is there when a session started (not when a code is awaited). */
export type SignInResult = LoginResponse & { readonly session_id?: string };

function accessToken(ctx: AuthContext, user: AuthUser, sessionId: string, now: number): string {
  return ctx.signer.sign(accessClaims(user, sessionId, now, ctx.policy.accessTokenTtlSec));
}

/** A new session: an access token and the first refresh token of a new family. */
export async function startSession(ctx: AuthContext, user: AuthUser): Promise<SessionTokens> {
  const now = ctx.clock.now();
  const refreshToken = newRefreshToken();
  const sessionId = randomUUID();
  await insertRefreshToken(ctx.db, {
    id: randomUUID(),
    userId: user.id,
    familyId: sessionId,
    parentId: null,
    tokenHash: hashRefreshToken(refreshToken),
    createdAt: new Date(now),
    expiresAt: new Date(now + ctx.policy.refreshTokenTtlSec * 1000),
  });
  await pruneExpiredRefreshTokens(ctx.db, new Date(now), PRUNE_BATCH);
  return {
    access_token: accessToken(ctx, user, sessionId, now),
    refresh_token: refreshToken,
    session_id: sessionId,
  };
}

/**
 * The answer to a correct first factor. With two-factor on, only a 5-minute token that
 * `/api/2fa/verify` accepts, and an empty refresh token: a session (and its refresh token) starts
 * only once the code is checked, so a stolen password alone never yields a refreshable session.
 */
export async function signIn(ctx: AuthContext, user: UserRow): Promise<SignInResult> {
  if (user.twofa_enabled) {
    const token = ctx.signer.sign(twoFactorClaims(user.id, ctx.clock.now()));
    return { access_token: token, refresh_token: '', requires_2fa: true };
  }
  return { ...(await startSession(ctx, user)), requires_2fa: false };
}

type RefreshOutcome =
  | { ok: true; user: UserRow; refreshToken: string; familyId: string }
  | { ok: false; csrf?: true; reused?: { userId: string; familyId: string } };

/**
 * A refresh token and how it came: a token from the cookie must come with the session's CSRF token
 * (`csrf`, from the `X-CSRF-Token` header), since a browser attaches the cookie by itself.
 */
export interface PresentedRefreshToken {
  readonly token: string;
  readonly fromCookie: boolean;
  readonly csrf?: string | undefined;
}

/**
 * Exchanges a refresh token for a new access token and the next refresh token of its family. The
 * family revocation on reuse commits before the 401 is answered (the transaction returns rather
 * than throws), so the alarm is not rolled back with the refusal. A cookie without its CSRF token
 * changes nothing, not even a reuse alarm: it proves nothing about who sent it.
 */
export async function refreshSession(
  ctx: AuthContext,
  presented: PresentedRefreshToken,
): Promise<SessionTokens> {
  const now = ctx.clock.now();
  const outcome = await ctx.db.transaction().execute(async (trx): Promise<RefreshOutcome> => {
    const row = await lockRefreshToken(trx, hashRefreshToken(presented.token));
    if (
      row &&
      presented.fromCookie &&
      !csrfMatches(ctx.cookiePolicy.csrfKey, row.family_id, presented.csrf)
    ) {
      return { ok: false, csrf: true };
    }
    const successor = row?.rotated_at && !row.revoked_at ? await lockUnusedSuccessor(trx, row) : undefined;
    const decision = decideRefresh(
      row && tokenState(row, successor !== undefined),
      now,
      ctx.policy.refreshReuseGraceSec * 1000,
    );
    if (!row || decision.action === 'reject') return { ok: false };
    if (decision.action === 'revoke_family') {
      await revokeFamily(trx, row.family_id, 'reuse', new Date(now));
      return { ok: false, reused: { userId: row.user_id, familyId: row.family_id } };
    }
    const user = await findUserById(trx, row.user_id);
    if (!user) return { ok: false };
    if (decision.action === 'reissue' && successor) {
      // The successor's answer never arrived (or another tab's overwrote it): retire it unused.
      await markRotated(trx, successor.id, new Date(now));
    } else {
      await markRotated(trx, row.id, new Date(now));
    }
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
    if (decision.action === 'reissue') {
      ctx.logger.info(
        { userId: row.user_id, familyId: row.family_id },
        'a spent refresh token came back within the grace period before its successor was used; reissued',
      );
    }
    return { ok: true, user, refreshToken, familyId: row.family_id };
  });
  if (!outcome.ok) {
    if (outcome.csrf) throw new CsrfRejected();
    if (outcome.reused) {
      ctx.endedSessions.add([outcome.reused.familyId], now);
      ctx.logger.warn(
        outcome.reused,
        'a spent refresh token was presented again; its session family is revoked',
      );
    }
    throw new InvalidRefreshToken();
  }
  return {
    access_token: accessToken(ctx, outcome.user, outcome.familyId, now),
    refresh_token: outcome.refreshToken,
    session_id: outcome.familyId,
  };
}

/**
 * Ends the session the token belongs to (its whole family), and its access tokens with it. Unknown
 * tokens are ignored; a cookie without its CSRF token is refused and ends nothing.
 */
export async function endSession(ctx: AuthContext, presented: PresentedRefreshToken): Promise<void> {
  const token = await findFamilyOfToken(ctx.db, hashRefreshToken(presented.token));
  if (!token) return;
  if (presented.fromCookie && !csrfMatches(ctx.cookiePolicy.csrfKey, token.family_id, presented.csrf)) {
    throw new CsrfRejected();
  }
  const now = ctx.clock.now();
  await revokeFamily(ctx.db, token.family_id, 'logout', new Date(now));
  ctx.endedSessions.add([token.family_id], now);
}

/** "Log out everywhere": every session of the user ends, the caller's included. */
export async function endAllSessions(ctx: AuthContext, userId: string): Promise<number> {
  const now = ctx.clock.now();
  const ended = await revokeUserSessions(ctx.db, userId, 'logout_all', new Date(now));
  ctx.endedSessions.add(ended, now);
  return ended.length;
}

function tokenState(row: RefreshTokenRow, successorUnused: boolean): RefreshTokenState {
  return {
    expiresAt: row.expires_at.getTime(),
    rotatedAt: row.rotated_at?.getTime() ?? null,
    revokedAt: row.revoked_at?.getTime() ?? null,
    successorUnused,
  };
}
