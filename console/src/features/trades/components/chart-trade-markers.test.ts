import { describe, expect, it } from 'vitest';
import type { ChartTrade } from './chart-trade-math';
import { MARKER_COLORS, tradeMarkers } from './chart-trade-markers';

const BAR = Date.UTC(2026, 0, 5, 12, 0) / 1000;
const BARS = new Set([BAR - 120, BAR - 60, BAR]);

function trade(id: string, createdAt: string, overrides: Partial<ChartTrade> = {}): ChartTrade {
  return {
    id,
    pair: 'BTCUSDT',
    direction: 'UP',
    amount: 10,
    entry_price: 95000,
    payout_pct: 80,
    created_at: createdAt,
    expiry_ts: BAR + 120,
    status: 'pending',
    ...overrides,
  };
}

describe('tradeMarkers', () => {
  it('marks each entry in its bar at the entry price, sorted by time, labelled once settled', () => {
    const markers = tradeMarkers(
      [
        trade('open', '2026-01-05T12:00:30.000Z'),
        trade('won', '2026-01-05T11:58:59.000Z', { status: 'won', direction: 'DOWN', entry_price: 95100 }),
        trade('lost', '2026-01-05T11:59:00.000Z', { status: 'lost' }),
      ],
      BARS,
      60,
    );
    expect(markers).toEqual([
      {
        id: 'won',
        time: BAR - 120,
        position: 'atPriceTop',
        price: 95100,
        shape: 'arrowDown',
        color: MARKER_COLORS.won,
        text: 'WIN',
      },
      {
        id: 'lost',
        time: BAR - 60,
        position: 'atPriceBottom',
        price: 95000,
        shape: 'arrowUp',
        color: MARKER_COLORS.lost,
        text: 'LOSS',
      },
      {
        id: 'open',
        time: BAR,
        position: 'atPriceBottom',
        price: 95000,
        shape: 'arrowUp',
        color: MARKER_COLORS.active,
        text: undefined,
      },
    ]);
  });

  it('leaves out trades whose entry bar is not on the chart', () => {
    expect(tradeMarkers([trade('old', '2026-01-05T10:00:00.000Z')], BARS, 60)).toEqual([]);
  });
});
