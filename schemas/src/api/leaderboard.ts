import { Type, type Static } from '@sinclair/typebox';

/** Daily leaderboard (spec §3 Leaderboard entry, §7 Leaderboard, §9 Leaderboard). */

export const LeaderboardEntry = Type.Object(
  {
    rank: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: 'Null when the user has no settled real trade today',
    }),
    user_id: Type.String({ format: 'uuid' }),
    name: Type.String({ description: 'First name and initial, e.g. "Ann L."' }),
    total_pnl: Type.Number({ description: "Today's P/L of settled real trades, dollars" }),
    total_trades: Type.Integer(),
    win_rate: Type.Number({ description: 'Won / total_trades x 100, 1 decimal' }),
  },
  { title: 'LeaderboardEntry' },
);
export type LeaderboardEntry = Static<typeof LeaderboardEntry>;

export const LeaderboardList = Type.Array(LeaderboardEntry, { title: 'Leaderboard' });

export const LeaderboardPositionParams = Type.Object({ user_id: Type.String({ format: 'uuid' }) });
