// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { ActiveTrade } from '../api/get-active-trades';
import { ChartActiveTradesBox } from './chart-active-trades-box';
import { ChartTradeBadges } from './chart-trade-badges';
import type { TradeHoverHandlers } from './chart-trade-hover';
import { entryClock, expiryClock } from './chart-trade-math';

const NOW = Date.UTC(2026, 0, 5, 12, 0, 0);
const NOW_SEC = NOW / 1000;

function trade(n: number, overrides: Partial<ActiveTrade> = {}): ActiveTrade {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    pair: 'BTCUSDT',
    direction: n % 2 === 0 ? 'DOWN' : 'UP',
    amount: 10 * n,
    entry_price: 95000 + n,
    expiry_ts: NOW_SEC + 60 * n + 5,
    payout_pct: 80,
    account_type: 'demo',
    created_at: new Date(NOW - 30_000).toISOString(),
    status: 'pending',
    ...overrides,
  };
}

const hover: TradeHoverHandlers = { enter: () => {}, leave: () => {}, describedBy: () => undefined };

afterEach(cleanup);

function renderBox(trades: ActiveTrade[]) {
  render(<ChartActiveTradesBox trades={trades} pair="BTCUSDT" now={NOW} hover={hover} frame={null} />);
  return screen.queryByRole('region', { name: 'Active Trades' });
}

describe('ChartActiveTradesBox', () => {
  it('is hidden without active trades', () => {
    expect(renderBox([])).toBeNull();
  });

  it('shows one trade with direction and amount, entry price, entry and expiry time and time left', () => {
    const one = trade(1);
    const box = renderBox([one])!;
    const rows = within(box).getAllByRole('listitem');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.textContent).toContain('UP $10.00');
    expect(rows[0]!.textContent).toContain(`Entry 95001.00 at ${entryClock(one)}`);
    expect(rows[0]!.textContent).toContain(`Expiry ${expiryClock(one)}`);
    expect(rows[0]!.textContent).toContain('00h 01m 05s');
    expect(within(box).queryByText(/more trades/)).toBeNull();
  });

  it('shows two trades and no "more" line', () => {
    const box = renderBox([trade(1), trade(2)])!;
    const rows = within(box).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[1]!.textContent).toContain('DOWN $20.00');
    expect(rows[1]!.textContent).toContain('00h 02m 05s');
    expect(within(box).queryByText(/more trades/)).toBeNull();
  });

  it('lists the first two of five and counts the other three', () => {
    const box = renderBox([1, 2, 3, 4, 5].map((n) => trade(n)))!;
    expect(within(box).getAllByRole('listitem')).toHaveLength(2);
    expect(within(box).getByText('+3 more trades')).toBeTruthy();
    expect(box.textContent).not.toContain('$30.00');
  });

  it('names the pair of a trade on another pair', () => {
    const box = renderBox([trade(1, { pair: 'EURUSD', entry_price: 1.16 })])!;
    expect(within(box).getByText('EURUSD')).toBeTruthy();
    expect(box.textContent).toContain('Entry 1.16000');
  });
});

describe('ChartTradeBadges', () => {
  it('shows a countdown badge per active trade, naming other pairs only', () => {
    const trades = [trade(1), trade(2, { pair: 'EURUSD', expiry_ts: NOW_SEC + 3723 })];
    render(<ChartTradeBadges trades={trades} pair="BTCUSDT" now={NOW} hover={hover} frame={null} />);
    const badges = within(screen.getByRole('group', { name: 'Trade countdowns' })).getAllByRole('button');
    expect(badges.map((badge) => badge.textContent)).toEqual([
      'UP$10.0000h 01m 05s',
      'EURUSDDOWN$20.0001h 02m 03s',
    ]);
  });

  it('renders nothing without active trades', () => {
    const { container } = render(
      <ChartTradeBadges trades={[]} pair="BTCUSDT" now={NOW} hover={hover} frame={null} />,
    );
    expect(container.innerHTML).toBe('');
  });
});
