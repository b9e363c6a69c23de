import { describe, expect, it } from 'vitest';
import {
  compareBalances,
  DEMO_GRANT_CENTS,
  modelBalances,
  tradeReturnCents,
  tradeStatus,
  type AckedOp,
  type ExitEvidence,
  type PlacedTrade,
} from './model';
import { createRandom, chaosSeed } from './random';

const trade = (over: Partial<PlacedTrade> = {}): PlacedTrade => ({
  tradeId: 't1',
  pair: 'EURUSD',
  direction: 'UP',
  account: 'real',
  amountCents: 1_000,
  entryPrice: 1.1,
  payoutPct: 82.5,
  ...over,
});
const exitAt = (price: number, ageMs = 500): ExitEvidence => ({
  expiryAtMs: 60_000,
  tick: { price, atMs: 60_000 - ageMs },
});

describe('tradeStatus and tradeReturnCents', () => {
  it('follows DESIGN §3: up wins above entry, equal is a draw, no tick within 10 s is void', () => {
    expect(tradeStatus(trade(), exitAt(1.2))).toBe('won');
    expect(tradeStatus(trade({ direction: 'DOWN' }), exitAt(1.2))).toBe('lost');
    expect(tradeStatus(trade(), exitAt(1.1))).toBe('draw');
    expect(tradeStatus(trade(), exitAt(1.2, 10_001))).toBe('void');
    expect(tradeStatus(trade(), exitAt(1.2, 10_000))).toBe('won');
    expect(tradeStatus(trade(), { expiryAtMs: 60_000, tick: null })).toBe('void');
  });

  it('pays the stake plus the payout rounded down to the cent on a win, the stake on a draw or void', () => {
    expect(tradeReturnCents(trade({ amountCents: 333 }), 'won')).toBe(333 + 274); // 274.725 → 274
    expect(tradeReturnCents(trade(), 'lost')).toBe(0);
    expect(tradeReturnCents(trade(), 'draw')).toBe(1_000);
    expect(tradeReturnCents(trade(), 'void')).toBe(1_000);
  });
});

describe('modelBalances', () => {
  const u = 'u1';
  it('credits the first qualifying real deposit with a bonus, and a withdrawal request forfeits it', () => {
    const history: AckedOp[] = [
      { kind: 'register', userId: u },
      { kind: 'deposit', userId: u, account: 'real', amountCents: 1_500, requestId: 'd0' },
      { kind: 'deposit', userId: u, account: 'real', amountCents: 4_000, requestId: 'd1' },
      { kind: 'deposit', userId: u, account: 'demo', amountCents: 700, requestId: null },
      { kind: 'place', userId: u, ...trade({ tradeId: 'a', amountCents: 200 }) },
      { kind: 'place', userId: u, ...trade({ tradeId: 'b', amountCents: 100, account: 'demo' }) },
      { kind: 'withdraw', userId: u, amountCents: 1_000, requestId: 'w1' },
      { kind: 'decide', userId: u, requestId: 'w1', amountCents: 1_000, decision: 'reject' },
      { kind: 'withdraw', userId: u, amountCents: 500, requestId: 'w2' },
      // A later deposit of $20 or more earns nothing: the bonus was used.
      { kind: 'deposit', userId: u, account: 'real', amountCents: 10_000, requestId: 'd2' },
    ];
    const exits = new Map([
      ['a', exitAt(1.2)],
      ['b', exitAt(1.0)],
    ]);
    const balances = modelBalances(history, exits).get(u)!;
    expect(balances).toEqual({
      real: 1_500 + 4_000 - 200 + (200 + 165) - 1_000 + 1_000 - 500 + 10_000,
      bonus: 0,
      demo: DEMO_GRANT_CENTS + 700 - 100,
      withdrawal_hold: 500,
      real_in_play: 0,
      bonus_in_play: 0,
      demo_in_play: 0,
    });
  });

  it('keeps the bonus (50%, capped at $500) until a cancel', () => {
    const history: AckedOp[] = [
      { kind: 'register', userId: u },
      { kind: 'deposit', userId: u, account: 'real', amountCents: 200_000, requestId: 'd1' },
    ];
    expect(modelBalances(history, new Map()).get(u)!.bonus).toBe(50_000);
    history.push({ kind: 'cancel_bonus', userId: u });
    expect(modelBalances(history, new Map()).get(u)!.bonus).toBe(0);
  });

  it('refuses to guess a trade without exit evidence', () => {
    const history: AckedOp[] = [
      { kind: 'register', userId: u },
      { kind: 'place', userId: u, ...trade() },
    ];
    expect(() => modelBalances(history, new Map())).toThrow(/no exit evidence/);
  });
});

describe('compareBalances', () => {
  it('counts a shortfall as lost and a surplus as duplicated, per account', () => {
    const zero = {
      real: 0,
      bonus: 0,
      demo: 0,
      withdrawal_hold: 0,
      real_in_play: 0,
      bonus_in_play: 0,
      demo_in_play: 0,
    };
    const result = compareBalances(
      new Map([['u', { ...zero, real: 1_000, demo: 500 }]]),
      new Map([['u', { real: 900, demo: 530, bonus: 0 }]]),
    );
    expect(result.lostCents).toBe(100);
    expect(result.duplicatedCents).toBe(30);
    expect(result.differences).toHaveLength(2);
  });
});

describe('random', () => {
  it('replays the same sequence for the same seed, and another for another seed', () => {
    const draw = (seed: number) => {
      const random = createRandom(seed).fork(3);
      return Array.from({ length: 8 }, () => random.int(0, 1_000_000));
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    expect(chaosSeed({ CHAOS_SEED: '1234' })).toBe(1234);
    expect(() => chaosSeed({ CHAOS_SEED: 'x' })).toThrow(/CHAOS_SEED/);
  });
});
