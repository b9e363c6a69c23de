import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AdminUserList, AdminUsersQuery } from '@updown/schemas/api';
import { errorResponses } from '../http/responses';
import type { AuthContext } from './auth.context';
import { listUsers } from './users.repository';

const LIST_LIMIT_DEFAULT = 500;

/**
 * `GET /api/admin/users`: the accounts, newest first. A later feature adds each user's stats.
 * No guard is written here: the auth plugin adds `requireAdmin` to every `/api/admin/*` route.
 */
export function adminUsersRoutes(ctx: AuthContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/admin/users',
      {
        schema: {
          tags: ['admin'],
          summary: 'List users',
          querystring: AdminUsersQuery,
          response: { 200: AdminUserList, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const rows = await listUsers(ctx.db, {
          limit: request.query.limit ?? LIST_LIMIT_DEFAULT,
          offset: request.query.offset ?? 0,
        });
        return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
      },
    );
  };
}
