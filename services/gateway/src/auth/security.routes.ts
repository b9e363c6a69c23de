import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ActiveSessionList,
  SECURITY_ACTIVITY_LIMIT_DEFAULT,
  SecurityActivity,
  SecurityActivityQuery,
  SessionIdParams,
  StatusOkResponse,
  StepUpRequest,
  StepUpResponse,
} from '@updown/schemas/api';
import { errorResponses } from '../http/responses';
import type { AuthContext } from './auth.context';
import {
  deviceName,
  endOwnSession,
  findUserById,
  listActiveSessions,
  listSecurityEvents,
  loadAccount,
  SECURITY_EVENT_TEXT,
  type SecurityEventRow,
  SessionNotFound,
  stepUp,
  UserNotFound,
} from '@updown/accounts';
import type { AuthHook, AuthHooks } from './auth.hooks';
import { clientOf } from './client-info';

const tags = ['auth'];
const security = [{ bearerAuth: [] }];
/** Sessions listed at most: far more than one person's devices; the oldest beyond it are left out. */
const ACTIVE_SESSIONS_MAX = 50;

function eventView(row: SecurityEventRow) {
  return {
    id: String(row.id),
    kind: row.kind,
    description: SECURITY_EVENT_TEXT[row.kind],
    occurred_at: row.occurred_at.toISOString(),
    address: row.address,
    device: deviceName(row.user_agent),
    session_id: row.session_id,
  };
}

async function activityPage(ctx: AuthContext, userId: string, query: { limit?: number; cursor?: string }) {
  const limit = query.limit ?? SECURITY_ACTIVITY_LIMIT_DEFAULT;
  // One more than the page, to know whether an older page exists without a count.
  const before = query.cursor === undefined ? undefined : Number(query.cursor);
  const rows = await listSecurityEvents(ctx.db, userId, { before, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return {
    events: page.map(eventView),
    next_cursor: rows.length > limit ? String(page[page.length - 1]!.id) : null,
  };
}

/**
 * The owner's view of their account's security (README "Account security"): the step-up that
 * sensitive actions need, the sessions that can still be renewed with "End session", and the
 * security activity; and the same activity for an admin in the Users tab.
 */
export function securityRoutes(
  ctx: AuthContext,
  hooks: AuthHooks,
  limit: AuthHook,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/api/auth/step-up',
      {
        onRequest: [limit, hooks.authenticate],
        schema: {
          tags,
          summary: 'Confirm the password (and authenticator code) before a sensitive action',
          description:
            'For 5 minutes after it, this session may turn two-factor on or off and change the password without sending the password again. Wrong passwords are throttled like sign-ins (400 `WRONG_PASSWORD`, then 429); with two-factor on, `totp_code` is required (400 `TWO_FACTOR_CODE_REQUIRED`) and spent.',
          security,
          body: StepUpRequest,
          response: { 200: StepUpResponse, ...errorResponses(400, 401, 429) },
        },
      },
      async (request) => {
        const proof = { password: request.body.password, totpCode: request.body.totp_code };
        const user = await loadAccount(ctx, request.user.id);
        const expiresAtMs = await stepUp(ctx, request.user, user, proof, clientOf(request));
        return { status: 'ok' as const, step_up_expires_at: new Date(expiresAtMs).toISOString() };
      },
    );

    app.get(
      '/api/auth/sessions',
      {
        onRequest: [hooks.authenticate],
        schema: {
          tags,
          summary: "The caller's sessions that can still be renewed, this one marked current",
          security,
          response: { 200: ActiveSessionList, ...errorResponses(401) },
        },
      },
      async (request) => {
        const rows = await listActiveSessions(
          ctx.db,
          request.user.id,
          new Date(ctx.clock.nowMs()),
          ACTIVE_SESSIONS_MAX,
        );
        return {
          sessions: rows.map((row) => ({
            id: row.id,
            signed_in_at: row.created_at.toISOString(),
            last_seen_at: row.last_seen_at.toISOString(),
            address: row.address,
            device: deviceName(row.user_agent),
            current: row.id === request.user.sessionId,
          })),
        };
      },
    );

    app.delete(
      '/api/auth/sessions/:id',
      {
        onRequest: [limit, hooks.authenticate],
        schema: {
          tags,
          summary: "End one of the caller's sessions, and its access tokens at once",
          description:
            "404 `SESSION_NOT_FOUND` for a session that is not the caller's or has ended already; nothing changes then.",
          security,
          params: SessionIdParams,
          response: { 200: StatusOkResponse, ...errorResponses(400, 401, 404, 429) },
        },
      },
      async (request) => {
        if (!(await endOwnSession(ctx, request.user, request.params.id, clientOf(request)))) {
          throw new SessionNotFound();
        }
        return { status: 'ok' as const };
      },
    );

    app.get(
      '/api/auth/security-activity',
      {
        onRequest: [hooks.authenticate],
        schema: {
          tags,
          summary: "The caller's security activity, newest first",
          description:
            'Sign-ins (address and device), bursts of failed sign-ins, two-factor and password changes, sessions ended, and a refresh token used twice (every session then ends). Paged by `cursor`.',
          security,
          querystring: SecurityActivityQuery,
          response: { 200: SecurityActivity, ...errorResponses(400, 401) },
        },
      },
      async (request) => activityPage(ctx, request.user.id, request.query),
    );

    app.get(
      '/api/admin/users/:id/security-activity',
      {
        schema: {
          tags: ['admin'],
          summary: "A user's security activity, newest first",
          params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
          querystring: SecurityActivityQuery,
          response: { 200: SecurityActivity, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        if (!(await findUserById(ctx.db, request.params.id))) throw new UserNotFound();
        return activityPage(ctx, request.params.id, request.query);
      },
    );
  };
}
