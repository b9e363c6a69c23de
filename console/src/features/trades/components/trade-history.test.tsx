// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { fakeApi, json } from '../../../testing/fake-api';
import { renderWithProviders } from '../../../testing/render';
import type { Trade } from '../api/get-trade-history';
import { TradeHistory } from './trade-history';
import { RecentTradesTable } from './recent-trades-table';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function trade(id: string, overrides: Partial<Trade> = {}): Trade {
  return {
    id,
    pair: 'BTCUSDT',
    direction: 'UP',
    amount: 10,
    entry_price: 95000,
    exit_price: null,
    payout_pct: 80,
    status: 'void',
    pnl: 0,
    created_at: '2026-11-21T10:00:00.000Z',
    expiry_ts: 1_800_000_000,
    account_type: 'demo',
    duration: 60,
    expiry_at_ms: 1_800_000_000_000,
    settled_at_ms: 1_800_000_000_100,
    void_reason: null,
    receipt_id: null,
    ...overrides,
  };
}

const TRADES = [
  trade('entry', { void_reason: 'feeds_diverged_at_entry' }),
  trade('expiry', { void_reason: 'feeds_diverged_at_expiry' }),
  trade('no-tick', { void_reason: 'no_exit_tick' }),
  trade('old-tick', { void_reason: 'exit_tick_too_old' }),
  trade('older', { void_reason: null }),
  trade('won', { status: 'won', pnl: 8, exit_price: 95010 }),
];

const EXPECTED = [
  'Void: price feeds disagreed at entry (stake returned)',
  'Void: price feeds disagreed at expiry (stake returned)',
  'Void: no price at expiry (stake returned)',
  'Void: no price at expiry (stake returned)',
];

describe('void reasons', () => {
  it('shows why each void trade of the History tab was voided, beside its status', async () => {
    fakeApi({ 'GET /api/trades/history': json(TRADES) });
    renderWithProviders(<TradeHistory />);
    const items = await screen.findAllByRole('listitem');
    expect(items).toHaveLength(TRADES.length);
    items.slice(0, EXPECTED.length).forEach((item, index) => {
      const status = within(item).getByText('void');
      expect(status.parentElement!.textContent).toContain(EXPECTED[index]);
    });
    // A void trade settled before reasons were kept, and a trade that is not void, say nothing more.
    expect(items[4]!.textContent).not.toContain('Void:');
    expect(items[5]!.textContent).not.toContain('Void:');
  });

  it("shows the reason in the Status cell of the dashboard's table", () => {
    renderWithProviders(<RecentTradesTable trades={TRADES} />);
    const cells = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[4]!);
    expect(cells.map((cell) => cell.textContent)).toEqual([
      ...EXPECTED.map((text) => `void ${text}`),
      'void',
      'won',
    ]);
  });
});
