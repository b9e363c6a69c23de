import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { DomainError, type Clock, type Database } from '@updown/runtime';
import {
  centsToDollars,
  LeaderboardEntry,
  LeaderboardList,
  LeaderboardPositionParams,
} from '@updown/schemas/api';
import { findUserRole } from '@updown/accounts';
import { errorResponses } from '../http/responses';
import { winRatePct } from '../shared/stats.domain';
import { LEADERBOARD_SIZE, leaderboardName, utcDay } from './leaderboard.domain';
import { dailyPosition, dailyTop, type DailyRow } from './leaderboard.read-model';

export interface LeaderboardPluginDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
}

function entryView(row: Omit<DailyRow, 'rank'> & { rank: number | null }): LeaderboardEntry {
  return {
    rank: row.rank,
    user_id: row.user_id,
    name: leaderboardName(row.name),
    total_pnl: centsToDollars(row.pnl_cents),
    total_trades: row.total_trades,
    win_rate: winRatePct(row.wins, row.total_trades),
  };
}

/** `/api/leaderboard/*` (spec §7 Leaderboard): today's (UTC, on the clock) P/L of settled real trades. */
export function createLeaderboardPlugin(deps: LeaderboardPluginDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/leaderboard/daily',
      {
        // Public; a token is accepted but changes nothing, so a stale one never breaks the page.
        onRequest: app.authenticateOptional,
        schema: {
          tags: ['leaderboard'],
          summary: `Top ${LEADERBOARD_SIZE} by today's P/L (UTC day)`,
          response: { 200: LeaderboardList },
        },
      },
      async () => (await dailyTop(deps.db, utcDay(deps.clock.nowMs()), LEADERBOARD_SIZE)).map(entryView),
    );

    app.get(
      '/api/leaderboard/daily/position/:user_id',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['leaderboard'],
          summary:
            "A user's place today: one's own, or anyone's for an admin; rank null without trades today",
          security: [{ bearerAuth: [] }],
          params: LeaderboardPositionParams,
          response: { 200: LeaderboardEntry, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { user_id: userId } = request.params;
        // Another user's position needs the caller's current role, not the one in the token.
        if (userId !== request.user.id && (await findUserRole(deps.db, request.user.id)) !== 'admin') {
          throw new DomainError('FORBIDDEN', 'You can only see your own position');
        }
        const row = await dailyPosition(deps.db, utcDay(deps.clock.nowMs()), userId);
        if (!row) throw new DomainError('NOT_FOUND', 'User not found');
        return entryView(row);
      },
    );
  };
}
