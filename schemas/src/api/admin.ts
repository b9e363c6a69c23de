import { Type, type Static } from '@sinclair/typebox';
import { RequestBody } from './request-body';
import {
  EXCHANGE_PROVIDERS,
  FEED_PROVIDERS,
  FeedStatus,
  type FeedProvider,
  PAIR_SYMBOL_LENGTH_MAX,
  SOURCE_SYMBOL_LENGTH_MAX,
  SOURCE_SYMBOL_PATTERN,
  SPREAD_BPS_MAX,
} from './market';
import { refusal } from './refusal';

/** Admin panel calls (spec §7 Admin). */

const providerList = FEED_PROVIDERS.join(', ');
const exchangeList = EXCHANGE_PROVIDERS.join(', ');
type ExchangeProvider = (typeof EXCHANGE_PROVIDERS)[number];
/** A pair's price source, named exactly as the API answers it. */
const providerSchema = {
  type: 'string',
  enum: [...FEED_PROVIDERS],
  description: `The price source: ${providerList}`,
  ...refusal('INVALID_FEED', { '*': `Provider must be one of ${providerList}` }),
};
const Provider = Type.Unsafe<FeedProvider>(providerSchema);
/**
 * A pair's reference feed: an exchange, or null for none. Null is listed in the enum because a
 * strict OpenAPI 3.0 reader admits null to a nullable enum only when the enum names it.
 */
const ReferenceProvider = Type.Unsafe<ExchangeProvider | null>({
  type: 'string',
  nullable: true,
  enum: [...EXCHANGE_PROVIDERS, null],
  description: `The exchange prices are checked against (${exchangeList}); null for none`,
  ...refusal('INVALID_FEED', { '*': `The reference must be an exchange: ${exchangeList}` }),
});
const SourceSymbol = Type.Union(
  [
    Type.String({
      minLength: 1,
      maxLength: SOURCE_SYMBOL_LENGTH_MAX,
      pattern: SOURCE_SYMBOL_PATTERN,
      ...refusal('INVALID_FEED', {
        '*': `An exchange symbol looks like BTC/USDT: letters, digits and / . _ : -, at most ${SOURCE_SYMBOL_LENGTH_MAX} characters`,
      }),
    }),
    Type.Null(),
  ],
  { description: "The exchange's own symbol, e.g. BTC/USDT" },
);
const SpreadBps = Type.Union(
  [
    Type.Integer({
      minimum: 1,
      maximum: SPREAD_BPS_MAX,
      ...refusal('INVALID_FEED', {
        '*': `The allowed spread must be a whole number of basis points from 1 to ${SPREAD_BPS_MAX}`,
      }),
    }),
    Type.Null(),
  ],
  { description: `Largest allowed disagreement with the reference, basis points (1 to ${SPREAD_BPS_MAX})` },
);

/** A pair's price sources. Absent fields of `POST /api/admin/pairs` mean OTC with no reference. */
const feedFields = {
  provider_symbol: Type.Optional(SourceSymbol),
  reference_provider: Type.Optional(ReferenceProvider),
  reference_symbol: Type.Optional(SourceSymbol),
  reference_spread_bps: Type.Optional(SpreadBps),
};

export const AddPairBody = RequestBody({
  symbol: Type.String({ minLength: 1, maxLength: PAIR_SYMBOL_LENGTH_MAX }),
  display_name: Type.String({ minLength: 1, maxLength: 64 }),
  provider: Type.Optional(Type.Unsafe<FeedProvider>({ ...providerSchema, default: 'OTC' })),
  ...feedFields,
});
export type AddPairBody = Static<typeof AddPairBody>;

/** `PUT /api/admin/pairs/{symbol}/feed`: the whole feed configuration, replaced at once. */
export const UpdatePairFeedBody = RequestBody(
  { provider: Provider, ...feedFields },
  { title: 'UpdatePairFeedBody' },
);
export type UpdatePairFeedBody = Static<typeof UpdatePairFeedBody>;

export const FeedHealthState = Type.Union(
  [Type.Literal('live'), Type.Literal('stale'), Type.Literal('down')],
  {
    description:
      '`live`: a tick in the last 5 s. `stale`: connected or not, no tick for 5 s. `down`: the feed is not reporting (price-ingest not running, or not serving this pair).',
  },
);

export const FeedHealth = Type.Object(
  {
    provider: Type.String(),
    source_symbol: Type.Union([Type.String(), Type.Null()]),
    state: FeedHealthState,
    last_tick_age_ms: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Null before the first tick',
    }),
    ticks_per_sec: Type.Number({ description: 'Over the last minute' }),
    reconnects: Type.Integer({ description: 'Since price-ingest started' }),
    gaps: Type.Integer({ description: 'Silences of 5 s or more since price-ingest started' }),
    malformed: Type.Integer({ description: 'Messages skipped as unreadable since price-ingest started' }),
    last_error: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'FeedHealth' },
);
export type FeedHealth = Static<typeof FeedHealth>;

export const AdminPairFeed = Type.Object(
  {
    pair: Type.String(),
    active: Type.Boolean(),
    feed_status: FeedStatus,
    divergence_bps: Type.Union([Type.Number(), Type.Null()], {
      description: 'How far the feed and its reference are apart now, basis points; null without both prices',
    }),
    spread_bps: Type.Union([Type.Integer(), Type.Null()]),
    primary: FeedHealth,
    reference: Type.Union([FeedHealth, Type.Null()]),
  },
  { title: 'AdminPairFeed' },
);
export type AdminPairFeed = Static<typeof AdminPairFeed>;

export const AdminFeedList = Type.Object(
  {
    providers: Type.Array(Type.String(), { description: 'The providers a pair can be given' }),
    items: Type.Array(AdminPairFeed),
  },
  { title: 'AdminFeedList' },
);
export type AdminFeedList = Static<typeof AdminFeedList>;

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
