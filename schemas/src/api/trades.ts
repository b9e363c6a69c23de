import { Type, type Static } from '@sinclair/typebox';
import { RequestBody } from './request-body';

/**
 * Trade API shapes (spec §3 Trade, §7 Trades). Money is in dollars with at most two decimals;
 * `created_at` is an ISO 8601 string and `expiry_ts` Unix seconds — the unit the console's chart
 * and countdowns use.
 */

const Direction = Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]);
const AccountType = Type.Union([Type.Literal('demo'), Type.Literal('real')]);
const Status = Type.Union(
  [
    Type.Literal('pending'),
    Type.Literal('won'),
    Type.Literal('lost'),
    Type.Literal('draw'),
    Type.Literal('void'),
  ],
  {
    description:
      '`draw`: exit equals entry, stake refunded. `void`: no price in the 10 s before expiry, stake refunded.',
  },
);

export const PlaceTradeBody = RequestBody(
  {
    pair: Type.String({ minLength: 1, maxLength: 32, description: 'Pair symbol, e.g. BTCUSDT' }),
    direction: Direction,
    amount: Type.Number({ description: 'Stake in dollars, at most 2 decimals; at least 1.00' }),
    duration: Type.Integer({ description: 'Seconds: 60, 120, 180, 240, 300, 900, 1800, 2700 or 3600' }),
    account_type: Type.Optional(AccountType),
  },
  { title: 'PlaceTradeBody' },
);
export type PlaceTradeBody = Static<typeof PlaceTradeBody>;

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'A retry with the same key returns the first trade and debits once',
    }),
  ),
});

export const Trade = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    pair: Type.String(),
    direction: Direction,
    amount: Type.Number({ description: 'Stake in dollars' }),
    entry_price: Type.Number(),
    exit_price: Type.Union([Type.Number(), Type.Null()]),
    payout_pct: Type.Number(),
    status: Status,
    pnl: Type.Union([Type.Number(), Type.Null()], {
      description: 'Profit or loss in dollars; null while pending',
    }),
    created_at: Type.String({ format: 'date-time' }),
    expiry_ts: Type.Integer({ description: 'Expiry, Unix seconds' }),
    account_type: AccountType,
    duration: Type.Integer({ description: 'Seconds' }),
  },
  { title: 'Trade' },
);
export type Trade = Static<typeof Trade>;

export const ActiveTrade = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    pair: Type.String(),
    direction: Direction,
    amount: Type.Number(),
    entry_price: Type.Number(),
    expiry_ts: Type.Integer({ description: 'Expiry, Unix seconds' }),
    status: Type.Literal('pending'),
    payout_pct: Type.Number(),
    account_type: AccountType,
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'ActiveTrade' },
);

export const ActiveTradeList = Type.Array(ActiveTrade);
export const TradeList = Type.Array(Trade);

export const TradeHistoryQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});

export const TradeIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

const TickRef = Type.Object({
  id: Type.Union([Type.Integer(), Type.Null()]),
  ts: Type.Integer({ description: 'Unix ms' }),
  price: Type.Number(),
});

export const TradeEvidence = Type.Object(
  {
    trade: Trade,
    entry_tick: Type.Union([TickRef, Type.Null()]),
    exit_tick: Type.Union([TickRef, Type.Null()]),
    entry_window: Type.Array(TickRef, { description: 'Stored ticks from 10 s before to 5 s after entry' }),
    exit_window: Type.Array(TickRef, { description: 'Stored ticks from 10 s before to 5 s after expiry' }),
  },
  { title: 'TradeEvidence' },
);
