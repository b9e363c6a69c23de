import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { LoginResponse, TokenPairResponse } from '@updown/schemas/api';
import {
  accessClaims,
  decideRefresh,
  twoFactorClaims,
  type AuthUser,
  type RefreshTokenState,
} from './auth.domain';
import type { AccountsContext } from './accounts.context';
import { CsrfRejected, InvalidRefreshToken } from './auth.errors';
import { bindingOf, clientSeen, type ClientInfo } from './client';
import { sameClient, type SecurityEventKind } from './security.domain';
import { insertSecurityEvent, insertSession, pruneSessions, touchSession } from './security.repository';
import { csrfMatches } from './csrf';
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

function accessToken(ctx: AccountsContext, user: AuthUser, sessionId: string, now: number): string {
  return ctx.signer.sign(accessClaims(user, sessionId, now, ctx.policy.accessTokenTtlSec));
}

/**
 * A new session: an access token and the first refresh token of a new family, bound to the client
 * that signed in; the session's row (device, address, last seen) and a "signed in" event for the
 * owner's security activity are written with it. The sign-in proved the password (and code), so the
 * session starts stepped up, for this client, for the step-up's five minutes.
 */
export async function startSession(
  ctx: AccountsContext,
  user: AuthUser,
  client: ClientInfo,
): Promise<SessionTokens> {
  const now = ctx.clock.nowMs();
  const refreshToken = newRefreshToken();
  const sessionId = randomUUID();
  const seen = clientSeen(client);
  const binding = bindingOf(client);
  await ctx.db.transaction().execute(async (trx) => {
    await insertSession(trx, { id: sessionId, userId: user.id, at: new Date(now), client: seen, binding });
    await insertRefreshToken(trx, {
      id: randomUUID(),
      userId: user.id,
      familyId: sessionId,
      parentId: null,
      tokenHash: hashRefreshToken(refreshToken),
      createdAt: new Date(now),
      expiresAt: new Date(now + ctx.policy.refreshTokenTtlSec * 1000),
      clientBinding: binding,
    });
    await insertSecurityEvent(trx, {
      userId: user.id,
      kind: 'sign_in',
      at: new Date(now),
      sessionId,
      client: seen,
    });
  });
  await pruneExpiredRefreshTokens(ctx.db, new Date(now), PRUNE_BATCH);
  await pruneSessions(ctx.db, new Date(now - ctx.policy.refreshTokenTtlSec * 1000), PRUNE_BATCH);
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
export async function signIn(ctx: AccountsContext, user: UserRow, client: ClientInfo): Promise<SignInResult> {
  if (user.twofa_enabled) {
    const token = ctx.signer.sign(twoFactorClaims(user.id, ctx.clock.nowMs()));
    return { access_token: token, refresh_token: '', requires_2fa: true };
  }
  return { ...(await startSession(ctx, user, client)), requires_2fa: false };
}

type RefreshOutcome =
  | { ok: true; user: UserRow; refreshToken: string; familyId: string; reissued: boolean }
  | {
      ok: false;
      csrf?: true;
      reused?: { userId: string; familyId: string; endedSessions: string[]; byOtherClient: boolean };
    };

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
 * Exchanges a refresh token for a new access token and the next refresh token of its family. A
 * spent token presented again (outside the grace for its own client) means the token was copied:
 * every session of the account ends, the owner's security activity says so, and the revocation
 * commits before the 401 is answered (the transaction returns rather than throws), so the alarm is
 * not rolled back with the refusal. A cookie without its CSRF token changes nothing, not even a
 * reuse alarm: it proves nothing about who sent it.
 */
export async function refreshSession(
  ctx: AccountsContext,
  presented: PresentedRefreshToken,
  client: ClientInfo,
): Promise<SessionTokens> {
  const now = ctx.clock.nowMs();
  const binding = bindingOf(client);
  const seen = clientSeen(client);
  const outcome = await ctx.db.transaction().execute(async (trx): Promise<RefreshOutcome> => {
    const row = await lockRefreshToken(trx, hashRefreshToken(presented.token));
    if (row && presented.fromCookie && !csrfMatches(ctx.csrfKey, row.family_id, presented.csrf)) {
      return { ok: false, csrf: true };
    }
    const successor = row?.rotated_at && !row.revoked_at ? await lockUnusedSuccessor(trx, row) : undefined;
    const decision = decideRefresh(
      row && tokenState(row, successor, binding),
      now,
      ctx.policy.refreshReuseGraceSec * 1000,
    );
    if (!row || decision.action === 'reject') return { ok: false };
    if (decision.action === 'revoke_family') {
      // The family first (its reason is the record of the theft), then every other session.
      await revokeFamily(trx, row.family_id, 'reuse', new Date(now));
      const others = await revokeUserSessions(trx, row.user_id, 'reuse', new Date(now));
      await insertSecurityEvent(trx, {
        userId: row.user_id,
        kind: 'refresh_token_reused',
        at: new Date(now),
        sessionId: row.family_id,
        client: seen,
      });
      const byOtherClient = decision.reason === 'reuse_by_other_client';
      const endedSessions = [...new Set([row.family_id, ...others])];
      return {
        ok: false,
        reused: { userId: row.user_id, familyId: row.family_id, endedSessions, byOtherClient },
      };
    }
    const user = await findUserById(trx, row.user_id);
    if (!user) return { ok: false };
    // A reissue retires the successor whose answer never arrived (or another tab overwrote).
    await markRotated(trx, decision.action === 'reissue' && successor ? successor.id : row.id, new Date(now));
    const refreshToken = newRefreshToken();
    await insertRefreshToken(trx, {
      id: randomUUID(),
      userId: row.user_id,
      familyId: row.family_id,
      parentId: row.id,
      tokenHash: hashRefreshToken(refreshToken),
      createdAt: new Date(now),
      expiresAt: new Date(now + ctx.policy.refreshTokenTtlSec * 1000),
      clientBinding: binding,
    });
    await touchSession(trx, row.family_id, new Date(now), seen);
    return { ok: true, user, refreshToken, familyId: row.family_id, reissued: decision.action === 'reissue' };
  });
  if (!outcome.ok) {
    if (outcome.csrf) throw new CsrfRejected();
    if (outcome.reused) reportReuse(ctx, outcome.reused, now);
    throw new InvalidRefreshToken();
  }
  if (outcome.reissued) {
    ctx.metrics.refreshReuse.inc({ outcome: 'reissued' });
    ctx.logger.info(
      { userId: outcome.user.id, familyId: outcome.familyId },
      'a spent refresh token came back from its own client within the grace period before its successor was used; reissued',
    );
  }
  return {
    access_token: accessToken(ctx, outcome.user, outcome.familyId, now),
    refresh_token: outcome.refreshToken,
    session_id: outcome.familyId,
  };
}

function reportReuse(
  ctx: AccountsContext,
  reused: { userId: string; familyId: string; endedSessions: string[]; byOtherClient: boolean },
  now: number,
): void {
  ctx.endedSessions.add(reused.endedSessions, now);
  ctx.metrics.refreshReuse.inc({ outcome: reused.byOtherClient ? 'revoked_other_client' : 'revoked_spent' });
  ctx.logger.warn(
    {
      userId: reused.userId,
      familyId: reused.familyId,
      sessionsEnded: reused.endedSessions.length,
      byOtherClient: reused.byOtherClient,
    },
    reused.byOtherClient
      ? 'a spent refresh token came back from another client within the grace period; every session of the account is ended'
      : 'a spent refresh token was presented again; every session of the account is ended',
  );
}

/**
 * Ends the session the token belongs to (its whole family), and its access tokens with it. Unknown
 * tokens are ignored; a cookie without its CSRF token is refused and ends nothing.
 */
export async function endSession(
  ctx: AccountsContext,
  presented: PresentedRefreshToken,
  client: ClientInfo,
): Promise<void> {
  const token = await findFamilyOfToken(ctx.db, hashRefreshToken(presented.token));
  if (!token) return;
  if (presented.fromCookie && !csrfMatches(ctx.csrfKey, token.family_id, presented.csrf)) {
    throw new CsrfRejected();
  }
  await endOneSession(ctx, { userId: token.user_id, sessionId: token.family_id }, client);
}

/**
 * "End session" on the owner's list: the session must be the caller's and still renewable, else
 * nothing changes and the answer is false (a 404 at the edge, whether it is someone else's or gone).
 */
export async function endOwnSession(
  ctx: AccountsContext,
  caller: AuthUser,
  sessionId: string,
  client: ClientInfo,
): Promise<boolean> {
  return endOneSession(ctx, { userId: caller.id, sessionId }, client);
}

async function endOneSession(
  ctx: AccountsContext,
  session: { userId: string; sessionId: string },
  client: ClientInfo,
): Promise<boolean> {
  const now = ctx.clock.nowMs();
  const ended = await ctx.db.transaction().execute(async (trx) => {
    const revoked = await revokeFamily(trx, session.sessionId, 'logout', new Date(now), session.userId);
    if (revoked === 0) return false;
    await insertSecurityEvent(trx, {
      userId: session.userId,
      kind: 'session_ended',
      at: new Date(now),
      sessionId: session.sessionId,
      client: clientSeen(client),
    });
    return true;
  });
  if (ended) ctx.endedSessions.add([session.sessionId], now);
  return ended;
}

/** "Log out everywhere": every session of the user ends, the caller's included. */
export async function endAllSessions(
  ctx: AccountsContext,
  caller: AuthUser,
  client: ClientInfo,
): Promise<number> {
  const now = ctx.clock.nowMs();
  const ended = await ctx.db.transaction().execute(async (trx) => {
    const sessions = await revokeUserSessions(trx, caller.id, 'logout_all', new Date(now));
    await recordSecurityEvent(trx, caller, 'all_sessions_ended', now, client);
    return sessions;
  });
  ctx.endedSessions.add(ended, now);
  return ended.length;
}

/** One event of the caller's own doing, on the session the caller acts from. */
export async function recordSecurityEvent(
  db: Kysely<Database> | Transaction<Database>,
  caller: Pick<AuthUser, 'id' | 'sessionId'>,
  kind: SecurityEventKind,
  now: number,
  client: ClientInfo,
): Promise<void> {
  await insertSecurityEvent(db, {
    userId: caller.id,
    kind,
    at: new Date(now),
    sessionId: caller.sessionId ?? null,
    client: clientSeen(client),
  });
}

function tokenState(
  row: RefreshTokenRow,
  successor: Pick<RefreshTokenRow, 'client_binding'> | undefined,
  presentedBy: string,
): RefreshTokenState {
  return {
    expiresAt: row.expires_at.getTime(),
    rotatedAt: row.rotated_at?.getTime() ?? null,
    revokedAt: row.revoked_at?.getTime() ?? null,
    successorUnused: successor !== undefined,
    presentedBySuccessorsClient: successor !== undefined && sameClient(successor.client_binding, presentedBy),
  };
}
