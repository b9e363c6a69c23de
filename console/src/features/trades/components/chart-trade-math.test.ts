import { describe, expect, it } from 'vitest';
import {
  entryClock,
  expiryClock,
  finalPnl,
  formatClock,
  formatSignedMoney,
  formatSignedPct,
  pnlAt,
  priceChangePct,
  profitPctAt,
  tradeResult,
  type ChartTrade,
} from './chart-trade-math';

const UP = { direction: 'UP', amount: 10, entry_price: 100, payout_pct: 80 } as const;
const DOWN = { ...UP, direction: 'DOWN' } as const;

describe('P/L at the current price', () => {
  it('pays amount × payout % when an UP trade is above its entry, and loses the stake below it', () => {
    expect(pnlAt(UP, 101)).toBe(8);
    expect(profitPctAt(UP, 101)).toBe(80);
    expect(pnlAt(UP, 99)).toBe(-10);
    expect(profitPctAt(UP, 99)).toBe(-100);
  });

  it('pays a DOWN trade below its entry and loses it above', () => {
    expect(pnlAt(DOWN, 99.5)).toBe(8);
    expect(profitPctAt(DOWN, 99.5)).toBe(80);
    expect(pnlAt(DOWN, 100.5)).toBe(-10);
    expect(profitPctAt(DOWN, 100.5)).toBe(-100);
  });

  it('is worth nothing either way when the price equals the entry (a draw)', () => {
    expect(pnlAt(UP, 100)).toBe(0);
    expect(pnlAt(DOWN, 100)).toBe(0);
    expect(profitPctAt(UP, 100)).toBe(0);
  });

  it('uses the trade’s own payout and stake', () => {
    expect(pnlAt({ ...UP, amount: 25, payout_pct: 92 }, 150)).toBe(23);
    expect(pnlAt({ ...DOWN, amount: 25 }, 150)).toBe(-25);
  });
});

describe('price change %', () => {
  it('is the signed move from entry whatever the direction', () => {
    expect(priceChangePct(100, 101)).toBeCloseTo(1);
    expect(priceChangePct(200, 199)).toBeCloseTo(-0.5);
    expect(priceChangePct(100, 100)).toBe(0);
  });
});

describe('final P/L', () => {
  const settled: ChartTrade = {
    ...UP,
    id: 't',
    pair: 'BTCUSDT',
    created_at: '2026-01-05T12:00:00.000Z',
    expiry_ts: 1_767_614_460,
    status: 'won',
    pnl: 8,
    exit_price: 101,
  };

  it('is the server’s figure when there is one, else what the exit price implies', () => {
    expect(finalPnl(settled)).toBe(8);
    expect(finalPnl({ ...settled, status: 'lost', pnl: null, exit_price: 99 })).toBe(-10);
    expect(finalPnl({ ...settled, pnl: null, exit_price: null })).toBeNull();
  });

  it('names the result Active, WIN or LOSS', () => {
    expect(tradeResult('pending')).toBe('Active');
    expect(tradeResult('won')).toBe('WIN');
    expect(tradeResult('lost')).toBe('LOSS');
    expect(tradeResult('draw')).toBe('DRAW');
  });
});

describe('formatting', () => {
  it('signs money with two decimals and leaves zero unsigned', () => {
    expect(formatSignedMoney(8)).toBe('+$8.00');
    expect(formatSignedMoney(-10)).toBe('-$10.00');
    expect(formatSignedMoney(0)).toBe('$0.00');
    expect(formatSignedMoney(-0.001)).toBe('$0.00');
  });

  it('signs percentages and never shows -0', () => {
    expect(formatSignedPct(80)).toBe('+80.00%');
    expect(formatSignedPct(-100)).toBe('-100.00%');
    expect(formatSignedPct(0)).toBe('0.00%');
    expect(formatSignedPct(-0.0001, 3)).toBe('0.000%');
    expect(formatSignedPct(0.0123, 3)).toBe('+0.012%');
  });

  it('shows wall-clock times as HH:MM:SS in the viewer’s zone', () => {
    expect(formatClock(new Date(2026, 0, 5, 9, 3, 7).getTime())).toBe('09:03:07');
    expect(formatClock(new Date(2026, 0, 5, 23, 59, 59, 999).getTime())).toBe('23:59:59');
    const opened = new Date(2026, 0, 5, 14, 0, 5);
    expect(entryClock({ created_at: opened.toISOString() })).toBe('14:00:05');
    expect(expiryClock({ expiry_ts: opened.getTime() / 1000 + 60 })).toBe('14:01:05');
  });
});
