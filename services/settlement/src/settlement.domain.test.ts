import { describe, expect, it } from 'vitest';
import { outcome, pnlCents, returnSplit, turnoverCents, type TurnoverCandidate } from './settlement.domain';

const expiry = 1_800_000_000_000;

describe('outcome', () => {
  it.each([
    ['UP', 1.1, 'won'],
    ['UP', 0.9, 'lost'],
    ['UP', 1.0, 'draw'],
    ['DOWN', 0.9, 'won'],
    ['DOWN', 1.1, 'lost'],
    ['DOWN', 1.0, 'draw'],
  ] as const)('%s with exit %s against entry 1.0 is %s', (direction, exit, expected) => {
    expect(outcome(direction, 1.0, expiry, { price: exit, ts: expiry })).toBe(expected);
  });

  it('is void with no tick, a tick after expiry, or none within 10 s before expiry', () => {
    expect(outcome('UP', 1, expiry, undefined)).toBe('void');
    expect(outcome('UP', 1, expiry, { price: 2, ts: expiry + 1 })).toBe('void');
    expect(outcome('UP', 1, expiry, { price: 2, ts: expiry - 10_001 })).toBe('void');
    expect(outcome('UP', 1, expiry, { price: 2, ts: expiry - 10_000 })).toBe('won');
  });
});

describe('pnlCents', () => {
  it('rounds a win down to the cent', () => {
    expect(pnlCents(1_000, 80, 'won')).toBe(800);
    expect(pnlCents(333, 82.5, 'won')).toBe(274); // 274.725 cents
    expect(pnlCents(1, 99, 'won')).toBe(0);
    expect(pnlCents(999, 85, 'won')).toBe(849); // 849.15
  });
  it('loses the stake and pays nothing on draw or void', () => {
    expect(pnlCents(1_000, 80, 'lost')).toBe(-1_000);
    expect(pnlCents(1_000, 80, 'draw')).toBe(0);
    expect(pnlCents(1_000, 80, 'void')).toBe(0);
  });
});

describe('returnSplit', () => {
  it('returns to cash and bonus in the proportion of the stake, without creating or losing a cent', () => {
    const split = returnSplit({ fromCashCents: 700, fromBonusCents: 300 }, 800, 'won');
    expect(split).toEqual({ toCashCents: 1_260, toBonusCents: 540 });
    const odd = returnSplit({ fromCashCents: 1, fromBonusCents: 2 }, 2, 'won');
    expect(odd.toCashCents + odd.toBonusCents).toBe(5);
    expect(returnSplit({ fromCashCents: 700, fromBonusCents: 300 }, 0, 'draw')).toEqual({
      toCashCents: 700,
      toBonusCents: 300,
    });
    expect(returnSplit({ fromCashCents: 700, fromBonusCents: 300 }, -1_000, 'lost')).toEqual({
      toCashCents: 0,
      toBonusCents: 0,
    });
    expect(returnSplit({ fromCashCents: 500, fromBonusCents: 0 }, 400, 'won')).toEqual({
      toCashCents: 900,
      toBonusCents: 0,
    });
  });
});

describe('turnoverCents', () => {
  const base: TurnoverCandidate = {
    tradeId: 't1',
    userId: 'u1',
    pair: 'EURUSD',
    direction: 'UP',
    expiryTs: expiry,
    durationSec: 60,
    accountType: 'real',
    amountCents: 1_000,
  };
  it('counts the stake of a real trade of 30 s or more', () => {
    expect(turnoverCents(base, [base])).toBe(1_000);
  });
  it('counts demo and short trades as 0', () => {
    expect(turnoverCents({ ...base, accountType: 'demo' }, [])).toBe(0);
    expect(turnoverCents({ ...base, durationSec: 29 }, [])).toBe(0);
  });
  it('counts both legs of a hedge as 0, but not same-direction or other users', () => {
    const hedge = { ...base, tradeId: 't2', direction: 'DOWN' as const };
    expect(turnoverCents(base, [base, hedge])).toBe(0);
    expect(turnoverCents(hedge, [base, hedge])).toBe(0);
    expect(turnoverCents(base, [base, { ...base, tradeId: 't3' }])).toBe(1_000);
    expect(turnoverCents(base, [base, { ...hedge, userId: 'u2' }])).toBe(1_000);
    expect(turnoverCents(base, [base, { ...hedge, expiryTs: expiry + 60_000 }])).toBe(1_000);
  });
});
