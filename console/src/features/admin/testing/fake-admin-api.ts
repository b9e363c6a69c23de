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

export const ADMIN_PAIRS: [MarketPair, MarketPair] = [
  { symbol: 'EURUSD', display_name: 'EUR/USD', active: true, payout_pct: 80, ...OTC_FEED },
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
