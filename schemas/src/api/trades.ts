import { Type, type Static } from '@sinclair/typebox';
import { PairSymbolInput } from './market';
import { refusal } from './refusal';
import { RequestBody } from './request-body';

/**
 * Trade API shapes (spec §3 Trade, §7 Trades). Money is in dollars with at most two decimals;
 * `created_at` is an ISO 8601 string and `expiry_ts` Unix seconds — the unit the console's chart
 * and countdowns use.
 */

/** The durations a trade may run, seconds (spec §9: 1m to 1h). */
export const TRADE_DURATIONS_SEC = [60, 120, 180, 240, 300, 900, 1800, 2700, 3600] as const;
export type TradeDuration = (typeof TRADE_DURATIONS_SEC)[number];
/** The smallest stake, dollars. */
export const TRADE_AMOUNT_MIN = 1;
/**
 * The largest stake the API takes, dollars: the platform's default max stake. An operator can set
 * the platform's max stake lower (the order service then refuses above it), never above this.
 */
export const TRADE_AMOUNT_MAX = 5_000;

const dollarText = (dollars: number) =>
  `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const Direction = Type.Union([Type.Literal('UP'), Type.Literal('DOWN')], { title: 'Direction' });
const AccountType = Type.Union([Type.Literal('demo'), Type.Literal('real')], { title: 'AccountType' });
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
      "`draw`: exit equals entry, stake refunded. `void`: no price in the 10 s before expiry, or the pair's two feeds disagreed at entry or expiry; stake refunded (`void_reason` says which).",
  },
);

/** The rule that voided a trade (the receipt's `rule`). */
export const VoidReason = Type.Union(
  [
    Type.Literal('no_exit_tick'),
    Type.Literal('exit_tick_too_old'),
    Type.Literal('feeds_diverged_at_entry'),
    Type.Literal('feeds_diverged_at_expiry'),
  ],
  { title: 'VoidReason' },
);
export type VoidReason = Static<typeof VoidReason>;

export const PlaceTradeBody = RequestBody(
  {
    pair: PairSymbolInput,
    direction: Direction,
    amount: Type.Number({
      minimum: TRADE_AMOUNT_MIN,
      maximum: TRADE_AMOUNT_MAX,
      multipleOf: 0.01,
      description: `Stake in dollars, ${dollarText(TRADE_AMOUNT_MIN)} to ${dollarText(TRADE_AMOUNT_MAX)}, at most 2 decimals. With an active bonus a real stake is also at most 20% of the bonus.`,
      ...refusal('INVALID_AMOUNT', {
        minimum: `Minimum trade amount is ${dollarText(TRADE_AMOUNT_MIN)}`,
        maximum: `Maximum trade amount is ${dollarText(TRADE_AMOUNT_MAX)}`,
        multipleOf: 'Please enter a valid amount',
      }),
    }),
    duration: Type.Unsafe<TradeDuration>({
      type: 'integer',
      enum: [...TRADE_DURATIONS_SEC],
      description: `Seconds: ${TRADE_DURATIONS_SEC.join(', ')}`,
      ...refusal('INVALID_DURATION', {
        '*': `Duration must be one of ${TRADE_DURATIONS_SEC.join(', ')} seconds`,
      }),
    }),
    account_type: Type.Optional(AccountType),
    payout_pct: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1000,
        description:
          'The payout the trader was shown for this direction. If the trade would now get less (the payout is skewed as one side grows), it is refused with 409 `PAYOUT_CHANGED` instead of placed; omitted, the trade takes the payout in force.',
        ...refusal('VALIDATION', { '*': 'payout_pct is a percentage from 0 to 1000' }),
      }),
    ),
  },
  { title: 'PlaceTradeBody' },
);
export type PlaceTradeBody = Static<typeof PlaceTradeBody>;

/** An `Idempotency-Key` header whose description says what a retry with the key does. */
export function idempotencyHeaders(retry: string) {
  return Type.Object({
    'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: retry })),
  });
}

export const IdempotencyHeaders = idempotencyHeaders(
  'A retry with the same key returns the first trade and debits once',
);

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
    created_at: Type.String({ format: 'date-time', description: 'When the trade was placed, ISO 8601' }),
    expiry_ts: Type.Integer({ description: 'Expiry, Unix epoch seconds (rounded up)' }),
    account_type: AccountType,
    duration: Type.Integer({ description: 'Length of the trade, seconds' }),
    expiry_at_ms: Type.Integer({
      description: 'The exact expiry, Unix epoch milliseconds: the exit tick is the last at or before it',
    }),
    settled_at_ms: Type.Union([Type.Integer(), Type.Null()], {
      description: 'When the trade was settled, Unix epoch milliseconds; null while pending',
    }),
    void_reason: Type.Union([VoidReason, Type.Null()], {
      description:
        'Why a void trade was voided; null for every other status (and for trades voided before reasons were kept)',
    }),
    receipt_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'Id of the signed receipt (GET /api/trades/{id}/receipt) once settled; null while pending',
    }),
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
    expiry_ts: Type.Integer({ description: 'Expiry, Unix epoch seconds (rounded up)' }),
    status: Type.Literal('pending'),
    payout_pct: Type.Number(),
    account_type: AccountType,
    created_at: Type.String({ format: 'date-time', description: 'When the trade was placed, ISO 8601' }),
  },
  { title: 'ActiveTrade' },
);

export const ActiveTradeList = Type.Array(ActiveTrade, { title: 'ActiveTradeList' });
export const TradeList = Type.Array(Trade, { title: 'TradeList' });

export const TRADE_HISTORY_LIMIT_DEFAULT = 20;
export const TRADE_HISTORY_LIMIT_MAX = 100;

export const TradeHistoryQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: TRADE_HISTORY_LIMIT_MAX,
      default: TRADE_HISTORY_LIMIT_DEFAULT,
      description: `How many of the newest trades, 1 to ${TRADE_HISTORY_LIMIT_MAX}; more is refused (400)`,
    }),
  ),
});

export const TradeIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

const TickRef = Type.Object(
  {
    id: Type.Union([Type.Integer(), Type.Null()]),
    ts: Type.Integer({ description: 'When the price was observed, Unix epoch milliseconds' }),
    price: Type.Number(),
  },
  { title: 'TickRef' },
);

const ReferenceMoment = Type.Object({
  price: Type.Number({ description: "The pair's feed: the price in force at that moment" }),
  reference_price: Type.Union([Type.Number(), Type.Null()], {
    description:
      "The reference feed's price in force at that moment; null when it had none in the 10 s before",
  }),
  reference_at_ms: Type.Union([Type.Integer(), Type.Null()]),
  divergence_bps: Type.Union([Type.Number(), Type.Null()], {
    description: '|price - reference| / reference, basis points',
  }),
});

export const ReferenceCheck = Type.Object(
  {
    provider: Type.String({ description: 'The reference feed' }),
    spread_bps: Type.Integer({ description: 'The largest disagreement the pair allowed at settlement' }),
    entry: ReferenceMoment,
    expiry: Type.Union([ReferenceMoment, Type.Null()], {
      description: 'Null when the trade had no exit price',
    }),
    decision: Type.Union(
      [
        Type.Literal('agreed'),
        Type.Literal('feeds_diverged_at_entry'),
        Type.Literal('feeds_diverged_at_expiry'),
        Type.Literal('reference_unavailable'),
      ],
      {
        description:
          '`reference_unavailable`: the reference had no price at a moment, so the trade settled on its own feed',
      },
    ),
  },
  { title: 'ReferenceCheck' },
);
export type ReferenceCheck = Static<typeof ReferenceCheck>;

export const TradeEvidence = Type.Object(
  {
    trade: Trade,
    reference_check: Type.Union([ReferenceCheck, Type.Null()], {
      description:
        'The cross-check against the reference feed, as settlement decided it; null when the pair had no reference then',
    }),
    entry_tick: Type.Union([TickRef, Type.Null()]),
    exit_tick: Type.Union([TickRef, Type.Null()]),
    entry_window: Type.Array(TickRef, { description: 'Stored ticks from 10 s before to 5 s after entry' }),
    exit_window: Type.Array(TickRef, { description: 'Stored ticks from 10 s before to 5 s after expiry' }),
  },
  { title: 'TradeEvidence' },
);
