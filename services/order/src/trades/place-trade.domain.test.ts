import { describe, expect, it } from 'vitest';
import { entryTickProblems } from '@updown/verify/rules';
import {
  decidePlacement,
  InsufficientBalance,
  InvalidAmount,
  InvalidDuration,
  PairNotTradable,
  StakeOutOfBounds,
  FeedsDiverged,
  StalePrice,
  type PlaceTradeCommand,
  type PlacementState,
} from './place-trade.domain';

const now = Date.UTC(2026, 10, 21, 12, 0, 0);
const state: PlacementState = {
  pair: { symbol: 'BTCUSDT', active: true, payoutPct: 80 },
  latestTick: { price: 97_123.45, atMs: now - 300, tickId: 42 },
  stakeCentsMax: 500_000,
  balances: { real: 5_000, bonus: 10_000, demo: 1_000_000 },
  activeBonusCents: undefined,
};
const command: PlaceTradeCommand = {
  userId: '00000000-0000-4000-8000-000000000001',
  pair: 'BTCUSDT',
  direction: 'UP',
  amountCents: 1_000,
  durationSec: 60,
  accountType: 'demo',
  now,
};

describe('decidePlacement', () => {
  it('accepts at the latest tick, fixes the payout and expires duration after acceptance', () => {
    expect(decidePlacement(state, command)).toMatchObject({
      entryPrice: 97_123.45,
      entryAtMs: now - 300,
      entryTickId: 42,
      payoutPct: 80,
      acceptedAtMs: now,
      expiryAtMs: now + 60_000,
      stakeFromCashCents: 1_000,
      stakeFromBonusCents: 0,
    });
  });

  it.each([0, -100, 10.5, Number.NaN])(
    'refuses amount %s with "Please enter a valid amount"',
    (amountCents) => {
      expect(() => decidePlacement(state, { ...command, amountCents })).toThrow(InvalidAmount);
      expect(() => decidePlacement(state, { ...command, amountCents })).toThrow(
        'Please enter a valid amount',
      );
    },
  );

  it('enforces the $1 minimum and the configured maximum stake', () => {
    expect(() => decidePlacement(state, { ...command, amountCents: 99 })).toThrow(
      'Minimum trade amount is $1.00',
    );
    expect(() => decidePlacement(state, { ...command, amountCents: 500_001 })).toThrow(
      'Maximum trade amount is $5,000.00',
    );
    expect(decidePlacement(state, { ...command, amountCents: 100 }).amountCents).toBe(100);
  });

  it('accepts only the listed durations', () => {
    for (const durationSec of [60, 120, 180, 240, 300, 900, 1800, 2700, 3600]) {
      expect(decidePlacement(state, { ...command, durationSec }).expiryAtMs).toBe(now + durationSec * 1000);
    }
    for (const durationSec of [0, 30, 59, 61, 3601]) {
      expect(() => decidePlacement(state, { ...command, durationSec })).toThrow(InvalidDuration);
    }
  });

  it('refuses unknown and inactive pairs', () => {
    expect(() => decidePlacement({ ...state, pair: undefined }, command)).toThrow(PairNotTradable);
    expect(() => decidePlacement({ ...state, pair: { ...state.pair!, active: false } }, command)).toThrow(
      /not available/,
    );
  });

  it('refuses a price older than 5 s, or none at all', () => {
    expect(() =>
      decidePlacement({ ...state, latestTick: { price: 1, atMs: now - 5_001, tickId: 1 } }, command),
    ).toThrow(StalePrice);
    expect(() => decidePlacement({ ...state, latestTick: undefined }, command)).toThrow(StalePrice);
    expect(
      decidePlacement({ ...state, latestTick: { price: 1, atMs: now - 5_000, tickId: 1 } }, command)
        .entryPrice,
    ).toBe(1);
  });

  it('never accepts before its entry tick: a tick from a clock ahead moves the acceptance to its instant', () => {
    const ahead = decidePlacement(
      { ...state, latestTick: { price: 1, atMs: now + 300, tickId: 1 } },
      command,
    );
    expect(ahead).toMatchObject({ entryAtMs: now + 300, acceptedAtMs: now + 300, expiryAtMs: now + 60_300 });
    expect(() =>
      decidePlacement({ ...state, latestTick: { price: 1, atMs: now + 5_001, tickId: 1 } }, command),
    ).toThrow(StalePrice);
  });

  it('accepts only what the entry rule of a receipt proves', () => {
    for (const ageMs of [0, 300, 5_000, -300]) {
      const trade = decidePlacement(
        { ...state, latestTick: { price: 97_000.5, atMs: now - ageMs, tickId: 1 } },
        command,
      );
      const entryTick = { seq: 1, atMs: trade.entryAtMs, price: String(trade.entryPrice) };
      expect(entryTickProblems(String(trade.entryPrice), trade.acceptedAtMs, entryTick)).toEqual([]);
    }
  });

  it("refuses a pair whose reference feed is silent or disagrees beyond the pair's spread", () => {
    const withReference = (price: number | null) => ({
      ...state,
      latestTick: { price: 100_000, atMs: now - 300, tickId: 1, reference: { price, spreadBps: 50 } },
    });
    expect(decidePlacement(withReference(100_400), command).entryPrice).toBe(100_000);
    expect(() => decidePlacement(withReference(null), command)).toThrow(StalePrice);
    expect(() => decidePlacement(withReference(101_000), command)).toThrow(new FeedsDiverged(command.pair));
    expect(new FeedsDiverged('BTCUSDT')).toMatchObject({
      code: 'FEEDS_DIVERGED',
      message: "BTCUSDT's price feeds disagree; trading is paused until they agree again",
    });
  });

  it('takes a real stake from cash first, then bonus', () => {
    const real = { ...command, accountType: 'real' as const, amountCents: 8_000 };
    expect(decidePlacement(state, real)).toMatchObject({
      stakeFromCashCents: 5_000,
      stakeFromBonusCents: 3_000,
    });
    expect(() => decidePlacement(state, { ...real, amountCents: 15_001 })).toThrow(InsufficientBalance);
    expect(() => decidePlacement({ ...state, balances: { ...state.balances, demo: 999 } }, command)).toThrow(
      'Insufficient balance',
    );
  });

  it('caps a real stake at 20% of an active bonus', () => {
    const withBonus = { ...state, activeBonusCents: 5_000 };
    const real = { ...command, accountType: 'real' as const };
    expect(decidePlacement(withBonus, { ...real, amountCents: 1_000 }).amountCents).toBe(1_000);
    expect(() => decidePlacement(withBonus, { ...real, amountCents: 1_001 })).toThrow(StakeOutOfBounds);
    expect(() => decidePlacement(withBonus, { ...real, amountCents: 1_001 })).toThrow(
      'With an active bonus the maximum stake is $10.00',
    );
    // Demo trades are not bound by the bonus.
    expect(decidePlacement(withBonus, { ...command, amountCents: 1_001 }).amountCents).toBe(1_001);
  });
});
