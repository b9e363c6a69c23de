import { describe, expect, it } from 'vitest';
import type { Receipt } from '../api/get-receipt';
import {
  DISPUTE_WINDOW_MS,
  canDispute,
  formatCents,
  formatInstantMs,
  formatPayout,
  formatSignedCents,
  ruleInWords,
} from './receipt-format';

const TICK = { seq: 9, atMs: 0, price: '95012.5', prevHash: 'a'.repeat(64), hash: 'b'.repeat(64) };

function receipt(overrides: Partial<Receipt>): Receipt {
  return {
    direction: 'UP',
    entryPrice: '95000.1',
    exitTick: TICK,
    expiryAtMs: 60_000,
    outcome: 'won',
    rule: 'exit_above_entry',
    ...overrides,
  } as Receipt;
}

describe('receipt formats', () => {
  it('turns cents and basis points into dollars and percentages', () => {
    expect(formatCents(1000)).toBe('$10.00');
    expect(formatSignedCents(800)).toBe('+$8.00');
    expect(formatSignedCents(-1000)).toBe('-$10.00');
    expect(formatSignedCents(0)).toBe('$0.00');
    expect(formatPayout(8000)).toBe('80%');
    expect(formatPayout(8250)).toBe('82.5%');
  });

  it('writes an instant to the millisecond in UTC', () => {
    expect(formatInstantMs(Date.UTC(2026, 0, 5, 12, 1, 0, 7))).toBe('2026-01-05 12:01:00.007 UTC');
  });
});

describe('ruleInWords', () => {
  it('names the prices exactly as signed and who won', () => {
    expect(ruleInWords(receipt({}))).toBe('Exit 95012.5 above entry 95000.1: UP won');
    expect(ruleInWords(receipt({ direction: 'DOWN', outcome: 'lost' }))).toBe(
      'Exit 95012.5 above entry 95000.1: DOWN lost',
    );
    expect(
      ruleInWords(
        receipt({ rule: 'exit_below_entry', outcome: 'lost', exitTick: { ...TICK, price: '94999' } }),
      ),
    ).toBe('Exit 94999 below entry 95000.1: UP lost');
  });

  it('explains a draw and both kinds of void', () => {
    expect(
      ruleInWords(
        receipt({ rule: 'exit_equals_entry', outcome: 'draw', exitTick: { ...TICK, price: '95000.1' } }),
      ),
    ).toBe('Exit 95000.1 equals entry 95000.1: draw, stake returned');
    expect(ruleInWords(receipt({ rule: 'no_exit_tick', outcome: 'void', exitTick: null }))).toBe(
      'No price was stored before expiry: void, stake returned',
    );
    expect(
      ruleInWords(
        receipt({ rule: 'exit_tick_too_old', outcome: 'void', exitTick: { ...TICK, atMs: 48_500 } }),
      ),
    ).toBe('The last price before expiry was 11.500 s old, older than 10 s: void, stake returned');
  });

  it('explains a void for price feeds that disagreed at entry or at expiry', () => {
    expect(ruleInWords(receipt({ rule: 'feeds_diverged_at_entry', outcome: 'void' }))).toBe(
      "The pair's price feeds disagreed at entry by more than its allowed spread: void, stake returned",
    );
    expect(ruleInWords(receipt({ rule: 'feeds_diverged_at_expiry', outcome: 'void' }))).toBe(
      "The pair's price feeds disagreed at expiry by more than its allowed spread: void, stake returned",
    );
  });

  it('still says something of a rule newer than the console', () => {
    expect(ruleInWords(receipt({ rule: 'market_halted', outcome: 'void' }))).toBe('market halted: void');
  });
});

describe('canDispute', () => {
  const settled = { tradeId: 't1', userId: 'u1', settledAtMs: 1_000_000 };

  it('lets the owner dispute for 24 hours after settlement', () => {
    expect(canDispute(settled, 'u1', [], settled.settledAtMs + 1)).toBe(true);
    expect(canDispute(settled, 'u1', [], settled.settledAtMs + DISPUTE_WINDOW_MS)).toBe(true);
    expect(canDispute(settled, 'u1', [], settled.settledAtMs + DISPUTE_WINDOW_MS + 1)).toBe(false);
  });

  it('refuses someone else, and a trade with an open dispute, but not one with a resolved dispute', () => {
    const now = settled.settledAtMs + 1000;
    expect(canDispute(settled, 'admin', [], now)).toBe(false);
    expect(canDispute(settled, undefined, [], now)).toBe(false);
    expect(canDispute(settled, 'u1', [{ trade_id: 't1', status: 'open' }], now)).toBe(false);
    expect(canDispute(settled, 'u1', [{ trade_id: 't2', status: 'open' }], now)).toBe(true);
    expect(canDispute(settled, 'u1', [{ trade_id: 't1', status: 'confirmed' }], now)).toBe(true);
  });
});
