import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { settledRealTradeStats } from '@updown/order';
import type { Database } from '@updown/runtime';
import { AdminUserList, AdminUsersQuery } from '@updown/schemas/api';
import { cashBalancesOf } from '@updown/wallet';
import { listUsers } from '../auth/users.repository';
import { centsToDollars } from '../http/money';
import { errorResponses } from '../http/responses';
import { winRatePct } from '../shared/stats.domain';

const LIST_LIMIT_DEFAULT = 500;

/**
 * `GET /api/admin/users`: the accounts, newest first, each with its stats (balances and settled
 * real trades). A page costs three statements whatever its size: the users, then their balances
 * from the wallet and their trade figures from the order service, each for the whole page at once.
 * No guard is written here: the auth plugin adds `requireAdmin` to every `/api/admin/*` route.
 */
export function adminUsersRoutes(deps: { readonly db: Kysely<Database> }): FastifyPluginAsyncTypebox {
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
        const rows = await listUsers(deps.db, {
          limit: request.query.limit ?? LIST_LIMIT_DEFAULT,
          offset: request.query.offset ?? 0,
        });
        const ids = rows.map((row) => row.id);
        const [balances, trades] = await Promise.all([
          cashBalancesOf(deps.db, ids),
          settledRealTradeStats(deps.db, ids),
        ]);
        return rows.map((row) => {
          const balance = balances.get(row.id);
          const s = trades.get(row.id);
          return {
            ...row,
            created_at: row.created_at.toISOString(),
            stats: {
              real_balance: centsToDollars(balance?.real_cents ?? 0),
              demo_balance: centsToDollars(balance?.demo_cents ?? 0),
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
