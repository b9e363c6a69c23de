import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import {
  limitsView,
  listTopToxicity,
  settledRealTradeStats,
  toxicityByUser,
  toxicityView,
  traderLimitsOf,
} from '@updown/order';
import type { Database } from '@updown/runtime';
import { AdminUserList, AdminUsersQuery, centsToDollars } from '@updown/schemas/api';
import { cashBalancesOf } from '@updown/wallet';
import { listUsers } from '@updown/accounts';
import { errorResponses } from '../http/responses';
import { winRatePct } from '../shared/stats.domain';

/** Most scored traders the sort by toxicity ranks; beyond them, users follow newest first. */
const TOXICITY_RANKED_MAX = 1_000;

const LIST_LIMIT_DEFAULT = 500;

/**
 * `GET /api/admin/users`: the accounts, newest first (or, with `sort=toxicity`, the scored traders
 * by their toxicity score first), each with its stats (balances and settled real trades), its
 * toxicity score and its own caps. A page costs a constant number of statements whatever its
 * size: the users, then their balances from the wallet and their trade figures, scores and caps
 * from the order service, each for the whole page at once.
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
        const ranked =
          request.query.sort === 'toxicity'
            ? (await listTopToxicity(deps.db, TOXICITY_RANKED_MAX)).map((row) => row.user_id)
            : undefined;
        const rows = await listUsers(deps.db, {
          limit: request.query.limit ?? LIST_LIMIT_DEFAULT,
          offset: request.query.offset ?? 0,
          ...(ranked ? { firstIds: ranked } : {}),
        });
        const ids = rows.map((row) => row.id);
        const [balances, trades, toxicity, limits] = await Promise.all([
          cashBalancesOf(deps.db, ids),
          settledRealTradeStats(deps.db, ids),
          toxicityByUser(deps.db, ids),
          traderLimitsOf(deps.db, ids),
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
            toxicity: toxicity.has(row.id) ? toxicityView(toxicity.get(row.id)!) : null,
            limits: limitsView(limits.get(row.id)),
          };
        });
      },
    );
  };
}
