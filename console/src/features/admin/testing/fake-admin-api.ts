import type { Schemas } from '../../../lib/api-schema';

// The routes-to-answers fetch stub is shared with the other features' tests.
export {
  bodiesOf,
  calls,
  fakeApi as fakeAdminApi,
  json,
  type FakeRoute,
  type FetchMock,
} from '../../../testing/fake-api';

type MarketPair = Schemas['MarketPair'];

/** A pair on the built-in feed, with no reference: what a pair added with defaults looks like. */
const OTC_FEED = {
  provider: 'OTC',
  provider_symbol: null,
  reference_provider: null,
  reference_symbol: null,
  reference_spread_bps: null,
  feed_status: 'live',
} as const;

/** Neither direction skewed and real trading open: a pair the risk controls leave alone. */
const NO_RISK_ACTION = { payout_up_pct: 80, payout_down_pct: 80, real_trading: 'open' } as const;

export const ADMIN_PAIRS: [MarketPair, MarketPair] = [
  { symbol: 'EURUSD', display_name: 'EUR/USD', active: true, payout_pct: 80, ...OTC_FEED, ...NO_RISK_ACTION },
  {
    symbol: 'BTC-X.1',
    display_name: 'BTC X',
    active: false,
    payout_pct: 80,
    provider: 'BINANCE',
    provider_symbol: 'BTC/USDT',
    reference_provider: 'KRAKEN',
    reference_symbol: 'XBT/USDT',
    reference_spread_bps: 50,
    feed_status: 'diverged',
    ...NO_RISK_ACTION,
  },
];

/** A healthy feed's report; override what a test looks at. */
export function feedHealth(overrides: Partial<Schemas['FeedHealth']> = {}): Schemas['FeedHealth'] {
  return {
    provider: 'OTC',
    source_symbol: null,
    state: 'live',
    last_tick_age_ms: 400,
    ticks_per_sec: 2,
    reconnects: 0,
    gaps: 0,
    malformed: 0,
    last_error: null,
    ...overrides,
  };
}

/** `GET /api/admin/feeds` for the two pairs above: one healthy OTC feed, one pair whose feeds disagree. */
export const ADMIN_FEEDS: Schemas['AdminFeedList'] = {
  providers: ['OTC', 'BINANCE', 'COINBASE', 'KRAKEN'],
  items: [
    {
      pair: 'EURUSD',
      active: true,
      feed_status: 'live',
      divergence_bps: null,
      spread_bps: null,
      primary: feedHealth(),
      reference: null,
    },
    {
      pair: 'BTC-X.1',
      active: false,
      feed_status: 'diverged',
      divergence_bps: 62.34,
      spread_bps: 50,
      primary: feedHealth({
        provider: 'BINANCE',
        source_symbol: 'BTC/USDT',
        last_tick_age_ms: 1250,
        ticks_per_sec: 11.52,
        reconnects: 3,
        gaps: 1,
        malformed: 2,
        last_error: 'socket closed: 1006',
      }),
      reference: feedHealth({
        provider: 'KRAKEN',
        source_symbol: 'XBT/USDT',
        state: 'stale',
        last_tick_age_ms: 7000,
        ticks_per_sec: 0.5,
      }),
    },
  ],
};

export function paymentRequest(overrides: Record<string, unknown> = {}) {
  return {
    id: '11111111-2222-4333-8444-555555555555',
    user_id: 'abcdef12-3456-4789-8abc-def012345678',
    amount: 150.5,
    account_type: 'real',
    status: 'pending',
    created_at: '2026-11-21T10:00:00.000Z',
    ...overrides,
  };
}

/** One side of a pair with no open trades and no cap. */
export function directionExposure(
  overrides: Partial<Schemas['DirectionExposure']> = {},
): Schemas['DirectionExposure'] {
  return {
    open_trades: 0,
    open_stake: 0,
    potential_profit: 0,
    exposure: 0,
    cap: null,
    used_pct: null,
    payout_pct: 80,
    ...overrides,
  };
}

/** A pair's risk as `GET /api/admin/risk` lists it: no caps, no skew, no breaker, nothing open. */
export function pairRisk(overrides: Partial<Schemas['PairRisk']> = {}): Schemas['PairRisk'] {
  return {
    symbol: 'EURUSD',
    payout_pct: 80,
    settings: {
      exposure_cap_up: null,
      exposure_cap_down: null,
      skew_max_pct: 0,
      skew_full_at: 1000,
      loss_limit: null,
      loss_window_min: 60,
    },
    up: directionExposure(),
    down: directionExposure(),
    pnl_today: 0,
    pnl_window: 0,
    suspended: false,
    suspended_at: null,
    suspended_reason: null,
    ...overrides,
  };
}

export function toxicityScore(overrides: Partial<Schemas['ToxicityScore']> = {}): Schemas['ToxicityScore'] {
  return {
    score: 82,
    trades: 40,
    wins: 31,
    z_score: 3.456,
    after_move_pct: 62.5,
    profit_factor: 2.4,
    components: { skill: 0.9, latency: 0.75, profit: 0.6 },
    window_days: 30,
    computed_at: '2026-11-21T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * `GET /api/admin/risk`: BTCUSDT heavy on UP (a quarter of its UP cap used, UP's payout skewed
 * down to 72%) and suspended by its loss breaker; EURUSD untouched.
 */
export const RISK_OVERVIEW: Schemas['RiskOverview'] = {
  pairs: [
    pairRisk({
      symbol: 'BTCUSDT',
      settings: {
        exposure_cap_up: 5000,
        exposure_cap_down: null,
        skew_max_pct: 10,
        skew_full_at: 2000,
        loss_limit: 500,
        loss_window_min: 60,
      },
      up: directionExposure({
        open_trades: 3,
        open_stake: 1500,
        potential_profit: 1234,
        exposure: 1234,
        cap: 5000,
        used_pct: 24.7,
        payout_pct: 72,
      }),
      down: directionExposure({ payout_pct: 80 }),
      pnl_today: -612.5,
      pnl_window: -520,
      suspended: true,
      suspended_at: '2026-11-21T10:00:00.000Z',
      suspended_reason: 'House lost $520.00 on BTCUSDT in 60 min (limit $500.00)',
    }),
    pairRisk(),
  ],
  trader_defaults: { max_open_stake: 2000, max_open_trades: null },
  top_traders: [
    {
      user_id: '00000000-0000-4000-8000-0000000000a1',
      name: 'Ann Lee',
      email: 'ann@example.com',
      toxicity: toxicityScore(),
      limits: null,
    },
  ],
  generated_at: '2026-11-21T10:00:05.000Z',
};
