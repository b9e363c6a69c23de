// The routes-to-answers fetch stub is shared with the other features' tests.
export {
  bodiesOf,
  calls,
  fakeApi as fakeAdminApi,
  json,
  type FakeRoute,
  type FetchMock,
} from '../../../testing/fake-api';

export const ADMIN_PAIRS = [
  { symbol: 'EURUSD', display_name: 'EUR/USD', active: true, payout_pct: 80, provider: 'OTC' },
  { symbol: 'BTC-X.1', display_name: 'BTC X', active: false, payout_pct: 80, provider: 'BINANCE' },
];

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
