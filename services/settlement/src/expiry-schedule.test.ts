import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpirySchedule } from './expiry-schedule';

describe('ExpirySchedule', () => {
  it('keeps each pair in expiry order whatever order trades arrive in', () => {
    const schedule = new ExpirySchedule(100);
    schedule.add('a', 'EURUSD', 3_000);
    schedule.add('b', 'EURUSD', 1_000);
    schedule.add('c', 'BTCUSDT', 500);
    schedule.add('d', 'EURUSD', 2_000);
    expect(schedule.earliest('EURUSD')).toBe(1_000);
    expect(schedule.earliestOverall()).toBe(500);
    expect(schedule.removeBefore('EURUSD', 2_001)).toBe(2);
    expect(schedule.earliest('EURUSD')).toBe(3_000);
    expect(schedule.size).toBe(2);
    expect(schedule.removeBefore('BTCUSDT', 501)).toBe(1);
    expect(schedule.pairs()).toEqual(['EURUSD']);
    expect(schedule.earliest('BTCUSDT')).toBeUndefined();
  });

  it('ignores a trade it already holds (a redelivered event) and refuses past its capacity', () => {
    const schedule = new ExpirySchedule(2);
    expect(schedule.add('a', 'EURUSD', 1)).toBe(true);
    expect(schedule.add('a', 'EURUSD', 1)).toBe(false);
    expect(schedule.add('b', 'EURUSD', 2)).toBe(true);
    expect(schedule.add('c', 'EURUSD', 3)).toBe(false);
    expect(schedule.size).toBe(2);
    schedule.removeBefore('EURUSD', 2);
    expect(schedule.has('a')).toBe(false);
    expect(schedule.add('a', 'EURUSD', 1)).toBe(true);
  });

  it('removes exactly the trades before the bound (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ expiry: fc.integer({ min: 0, max: 1_000 }), pair: fc.constantFrom('A', 'B') }), {
          maxLength: 200,
        }),
        fc.integer({ min: 0, max: 1_001 }),
        (trades, bound) => {
          const schedule = new ExpirySchedule(1_000);
          trades.forEach((t, i) => schedule.add(`t${i}`, t.pair, t.expiry));
          const removed = schedule.removeBefore('A', bound);
          const expected = trades.filter((t) => t.pair === 'A' && t.expiry < bound).length;
          expect(removed).toBe(expected);
          const restA = trades.filter((t) => t.pair === 'A' && t.expiry >= bound).map((t) => t.expiry);
          expect(schedule.earliest('A')).toBe(restA.length ? Math.min(...restA) : undefined);
          expect(schedule.size).toBe(trades.length - expected);
        },
      ),
    );
  });
});
