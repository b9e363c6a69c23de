import { describe, expect, it } from 'vitest';
import {
  dueBefore,
  outcome,
  pnlCents,
  QUIET_FEED_SETTLE_DELAY_MS,
  returnSplit,
  settle,
  settlementEntry,
  settlementKey,
  turnoverCents,
  type SettlingTrade,
  type TurnoverCandidate,
} from './settlement.domain';

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
    expect(outcome(direction, 1.0, expiry, { price: exit, atMs: expiry })).toBe(expected);
  });

  it('is void with no tick, a tick after expiry, or none within 10 s before expiry', () => {
    expect(outcome('UP', 1, expiry, undefined)).toBe('void');
    expect(outcome('UP', 1, expiry, { price: 2, atMs: expiry + 1 })).toBe('void');
    expect(outcome('UP', 1, expiry, { price: 2, atMs: expiry - 10_001 })).toBe('void');
    expect(outcome('UP', 1, expiry, { price: 2, atMs: expiry - 10_000 })).toBe('won');
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
    expiryAtMs: expiry,
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
    expect(turnoverCents(base, [base, { ...hedge, expiryAtMs: expiry + 60_000 }])).toBe(1_000);
  });
});

describe('dueBefore', () => {
  const now = expiry + 500;
  it('makes trades due once a stored tick after their expiry exists', () => {
    const bound = dueBefore(expiry + 1, now);
    expect(expiry < bound).toBe(true);
    expect(expiry < dueBefore(expiry, now)).toBe(false); // a tick exactly at expiry is the exit, not the trigger
  });
  it('makes trades due on a quiet feed exactly QUIET_FEED_SETTLE_DELAY_MS after expiry', () => {
    expect(expiry < dueBefore(undefined, expiry + QUIET_FEED_SETTLE_DELAY_MS - 1)).toBe(false);
    expect(expiry < dueBefore(undefined, expiry + QUIET_FEED_SETTLE_DELAY_MS)).toBe(true);
    expect(expiry < dueBefore(expiry - 5, expiry + QUIET_FEED_SETTLE_DELAY_MS)).toBe(true);
  });
});

describe('settle and settlementEntry', () => {
  const user = '00000000-0000-4000-8000-000000000001';
  const real: SettlingTrade = {
    tradeId: 't1',
    userId: user,
    direction: 'UP',
    accountType: 'real',
    amountCents: 1_000,
    stakeCashCents: 700,
    stakeBonusCents: 300,
    payoutPct: 85,
    entryPrice: 1.1,
    expiryAtMs: expiry,
  };
  const tick = (price: number, atMs = expiry - 100) => ({ id: 42, price, atMs });
  const sum = (entry: ReturnType<typeof settlementEntry>) =>
    entry.postings.reduce((s, p) => s + p.amountCents, 0);
  const byAccount = (entry: ReturnType<typeof settlementEntry>) =>
    Object.fromEntries(
      entry.postings.map((p) => ['system' in p.account ? p.account.system : p.account.type, p.amountCents]),
    );

  it('voids a trade whose feeds disagreed, refunding the stake, and records the check either way', () => {
    const reference = (atExpiry: number | null) => ({
      provider: 'COINBASE',
      spreadBps: 50,
      atEntry: { price: 1.1001, atMs: expiry - 60_000 },
      atExpiry: atExpiry === null ? null : { price: atExpiry, atMs: expiry - 200 },
    });
    const diverged = settle(real, tick(1.2), reference(1.1));
    expect(diverged).toMatchObject({
      status: 'void',
      rule: 'feeds_diverged_at_expiry',
      pnlCents: 0,
      exit: null,
      toCashCents: 700,
      toBonusCents: 300,
    });
    expect(diverged.referenceCheck).toMatchObject({
      provider: 'COINBASE',
      spread_bps: 50,
      entry: { price: 1.1, reference_price: 1.1001, reference_at_ms: expiry - 60_000 },
      expiry: { price: 1.2, reference_price: 1.1, reference_at_ms: expiry - 200 },
      decision: 'feeds_diverged_at_expiry',
    });
    expect(settlementEntry(real, diverged).kind).toBe('trade_refund');
    const agreed = settle(real, tick(1.2), reference(1.2003));
    expect(agreed).toMatchObject({ status: 'won', rule: 'exit_above_entry' });
    expect(agreed.referenceCheck?.decision).toBe('agreed');
    expect(settle(real, tick(1.2), reference(null)).referenceCheck?.decision).toBe('reference_unavailable');
  });

  it("pays a win back in the stake's proportion, cash profit from the house, bonus profit from the pool", () => {
    const result = settle(real, tick(1.2));
    expect(result).toEqual({
      status: 'won',
      rule: 'exit_above_entry',
      referenceCheck: null,
      pnlCents: 850,
      exit: tick(1.2),
      toCashCents: 1_295,
      toBonusCents: 555,
    });
    const entry = settlementEntry(real, result);
    expect(entry.kind).toBe('trade_payout');
    expect(entry.idempotencyKey).toBe(settlementKey('t1'));
    expect(sum(entry)).toBe(0);
    expect(byAccount(entry)).toEqual({
      real_in_play: -700,
      bonus_in_play: -300,
      real: 1_295,
      bonus: 555,
      house_real: -595,
      bonus_pool: -255,
    });
  });

  it('sends a lost cash stake to the house and a lost bonus stake back to the pool', () => {
    const result = settle(real, tick(1.0));
    expect(result.status).toBe('lost');
    expect(result.pnlCents).toBe(-1_000);
    const entry = settlementEntry(real, result);
    expect(entry.kind).toBe('trade_loss');
    expect(byAccount(entry)).toEqual({
      real_in_play: -700,
      bonus_in_play: -300,
      house_real: 700,
      bonus_pool: 300,
    });
  });

  it('refunds a draw and a void exactly, and keeps no exit tick for a void', () => {
    const draw = settle(real, tick(1.1));
    expect(draw).toMatchObject({ status: 'draw', pnlCents: 0, exit: tick(1.1) });
    expect(byAccount(settlementEntry(real, draw))).toEqual({
      real_in_play: -700,
      bonus_in_play: -300,
      real: 700,
      bonus: 300,
    });
    const stale = settle(real, tick(1.5, expiry - 10_001));
    expect(stale).toMatchObject({ status: 'void', pnlCents: 0, exit: null });
    expect(settlementEntry(real, stale).kind).toBe('trade_refund');
    expect(settle(real, undefined)).toMatchObject({ status: 'void', exit: null });
  });

  it('settles demo trades against the demo house and drops zero postings', () => {
    const demo: SettlingTrade = {
      ...real,
      accountType: 'demo',
      stakeCashCents: 1_000,
      stakeBonusCents: 0,
      direction: 'DOWN',
    };
    expect(byAccount(settlementEntry(demo, settle(demo, tick(1.0))))).toEqual({
      demo_in_play: -1_000,
      demo: 1_850,
      house_demo: -850,
    });
    expect(byAccount(settlementEntry(demo, settle(demo, tick(1.2))))).toEqual({
      demo_in_play: -1_000,
      house_demo: 1_000,
    });
    const tiny: SettlingTrade = {
      ...real,
      amountCents: 1,
      stakeCashCents: 1,
      stakeBonusCents: 0,
      payoutPct: 80,
    };
    const won = settle(tiny, tick(2));
    expect(won.pnlCents).toBe(0);
    expect(byAccount(settlementEntry(tiny, won))).toEqual({ real_in_play: -1, real: 1 });
  });
});
