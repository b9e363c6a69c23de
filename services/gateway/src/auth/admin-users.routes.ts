import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AdminUserList, AdminUsersQuery } from '@updown/schemas/api';
import { userStats } from '../admin/admin.repository';
import { winRatePct } from '../leaderboard/leaderboard.domain';
import { centsToDollars } from '../http/money';
import { errorResponses } from '../http/responses';
import type { AuthContext } from './auth.context';
import { listUsers } from './users.repository';

const LIST_LIMIT_DEFAULT = 500;

/**
 * `GET /api/admin/users`: the accounts, newest first, each with its stats (balances and settled
 * real trades), read for the whole page in one aggregate statement.
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
        const stats = await userStats(
          ctx.db,
          rows.map((row) => row.id),
        );
        return rows.map((row) => {
          const s = stats.get(row.id);
          return {
            ...row,
            created_at: row.created_at.toISOString(),
            stats: {
              real_balance: centsToDollars(s?.real_cents ?? 0),
              demo_balance: centsToDollars(s?.demo_cents ?? 0),
              total_trades: s?.total_trades ?? 0,
              win_rate: winRatePct(s?.wins ?? 0, s?.total_trades ?? 0),
              net_pnl: centsToDollars(s?.pnl_cents ?? 0),
            },
          };
        });
      },
    );
  };
}
