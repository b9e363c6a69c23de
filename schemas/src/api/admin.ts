import { Type, type Static } from '@sinclair/typebox';
import { RequestBody } from './request-body';
import { PAIR_SYMBOL_LENGTH_MAX } from './market';
import { refusal } from './refusal';

/** Admin panel calls (spec §7 Admin). */

export const AddPairBody = RequestBody({
  symbol: Type.String({ minLength: 1, maxLength: PAIR_SYMBOL_LENGTH_MAX }),
  display_name: Type.String({ minLength: 1, maxLength: 64 }),
  provider: Type.Optional(Type.String({ minLength: 1, maxLength: 32, default: 'OTC' })),
});
export type AddPairBody = Static<typeof AddPairBody>;

export const UpdatePairBody = RequestBody({ active: Type.Boolean() });

export const PairSymbolParams = Type.Object({
  symbol: Type.String({ minLength: 1, maxLength: PAIR_SYMBOL_LENGTH_MAX }),
});

export const PlatformSettings = Type.Object(
  { payout_pct: Type.Number(), require_deposit_approval: Type.Boolean() },
  { title: 'PlatformSettings' },
);
export type PlatformSettings = Static<typeof PlatformSettings>;

/** Both optional so one setting can change alone; the console sends both. */
export const PAYOUT_PCT_MIN = 1;
export const PAYOUT_PCT_MAX = 100;
const PAYOUT_PCT_RANGE = `Payout percentage must be between ${PAYOUT_PCT_MIN} and ${PAYOUT_PCT_MAX}`;

export const UpdateSettingsBody = RequestBody({
  payout_pct: Type.Optional(
    Type.Number({
      minimum: PAYOUT_PCT_MIN,
      maximum: PAYOUT_PCT_MAX,
      multipleOf: 0.01,
      description: `Percent, ${PAYOUT_PCT_MIN} to ${PAYOUT_PCT_MAX}, at most 2 decimals`,
      ...refusal('INVALID_SETTINGS', {
        minimum: PAYOUT_PCT_RANGE,
        maximum: PAYOUT_PCT_RANGE,
        multipleOf: 'Payout percentage has at most 2 decimals',
      }),
    }),
  ),
  require_deposit_approval: Type.Optional(Type.Boolean()),
});
export type UpdateSettingsBody = Static<typeof UpdateSettingsBody>;

export const RequestDecisionBody = RequestBody({
  action: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
});

export const RequestIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const ADMIN_REQUESTS_LIMIT_DEFAULT = 200;
export const ADMIN_REQUESTS_LIMIT_MAX = 1000;

export const AdminRequestsQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: ADMIN_REQUESTS_LIMIT_MAX, default: ADMIN_REQUESTS_LIMIT_DEFAULT }),
  ),
  status: Type.Optional(
    Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]),
  ),
});

export const AdminUserStats = Type.Object(
  {
    real_balance: Type.Number(),
    demo_balance: Type.Number(),
    total_trades: Type.Integer({ description: 'Settled real trades (void ones excluded)' }),
    win_rate: Type.Number({ description: 'Won / total_trades x 100, 1 decimal' }),
    net_pnl: Type.Number({ description: 'Sum of the P/L of settled real trades, dollars' }),
  },
  { title: 'AdminUserStats' },
);
export type AdminUserStats = Static<typeof AdminUserStats>;
