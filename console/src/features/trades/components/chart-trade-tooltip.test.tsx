// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { ChartTrade } from './chart-trade-math';
import { entryClock, expiryClock } from './chart-trade-math';
import { ChartTradeTooltip } from './chart-trade-tooltip';

const ANCHOR = { x: 10, y: 20, place: 'below' } as const;

const PENDING: ChartTrade = {
  id: '00000000-0000-4000-8000-000000000001',
  pair: 'BTCUSDT',
  direction: 'UP',
  amount: 10,
  entry_price: 95000,
  payout_pct: 80,
  created_at: '2026-01-05T12:00:05.000Z',
  expiry_ts: Date.UTC(2026, 0, 5, 12, 1, 5) / 1000,
  status: 'pending',
};

afterEach(cleanup);

/** The tooltip's rows as label → value. */
function rows(): Record<string, string> {
  const tooltip = screen.getByRole('tooltip');
  const entries = [...tooltip.querySelectorAll('dt')].map((dt) => [
    dt.textContent ?? '',
    dt.nextElementSibling?.textContent ?? '',
  ]);
  return Object.fromEntries(entries);
}

describe('ChartTradeTooltip', () => {
  it('shows a pending trade with live P/L, profit % and price change % at the current price', () => {
    render(<ChartTradeTooltip id="tip" trade={PENDING} price={95047.5} anchor={ANCHOR} />);
    expect(screen.getByRole('tooltip').textContent).toContain('BTCUSDT');
    expect(rows()).toEqual({
      Direction: 'UP',
      Result: 'Active',
      'Entry Price': '95000.00',
      'Entry Time': entryClock(PENDING),
      'Expiry Time': expiryClock(PENDING),
      Amount: '$10.00',
      Payout: '80%',
      'Current P/L': '+$8.00',
      'Profit %': '+80.00%',
      'Price Change %': '+0.050%',
    });
  });

  it('shows a losing DOWN trade while the price is above its entry', () => {
    render(
      <ChartTradeTooltip
        id="tip"
        trade={{ ...PENDING, direction: 'DOWN', amount: 25 }}
        price={95950}
        anchor={ANCHOR}
      />,
    );
    expect(rows()).toMatchObject({
      Direction: 'DOWN',
      'Current P/L': '-$25.00',
      'Profit %': '-100.00%',
      'Price Change %': '+1.000%',
    });
  });

  it('shows a draw at the entry price as worth nothing', () => {
    render(<ChartTradeTooltip id="tip" trade={PENDING} price={95000} anchor={ANCHOR} />);
    expect(rows()).toMatchObject({ 'Current P/L': '$0.00', 'Profit %': '0.00%', 'Price Change %': '0.000%' });
  });

  it('leaves the live figures blank without a price for the trade’s pair', () => {
    render(
      <ChartTradeTooltip
        id="tip"
        trade={{ ...PENDING, pair: 'EURUSD', entry_price: 1.16 }}
        price={null}
        anchor={ANCHOR}
      />,
    );
    expect(rows()).toMatchObject({ 'Entry Price': '1.16000', 'Current P/L': '—', 'Profit %': '—' });
  });

  it('shows a settled trade with its result and Final P/L instead of live figures', () => {
    render(
      <ChartTradeTooltip
        id="tip"
        trade={{ ...PENDING, status: 'won', pnl: 8, exit_price: 95100 }}
        price={94000}
        anchor={ANCHOR}
      />,
    );
    const shown = rows();
    expect(shown).toMatchObject({ Result: 'WIN', 'Final P/L': '+$8.00', Payout: '80%', Amount: '$10.00' });
    expect(shown).not.toHaveProperty('Current P/L');
    expect(shown).not.toHaveProperty('Profit %');
    expect(shown).not.toHaveProperty('Price Change %');
  });

  it('shows a lost trade as LOSS with the stake lost', () => {
    render(
      <ChartTradeTooltip
        id="tip"
        trade={{ ...PENDING, status: 'lost', pnl: -10, exit_price: 94900 }}
        price={null}
        anchor={{ x: 0, y: 0, place: 'above' }}
      />,
    );
    expect(rows()).toMatchObject({ Result: 'LOSS', 'Final P/L': '-$10.00' });
    expect(screen.getByRole('tooltip').className).toContain('chart-trade-tooltip--above');
  });
});
