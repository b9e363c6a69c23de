import { describe, expect, it } from 'vitest';
import { fundsAfterStake } from '@updown/wallet/domain';
import {
  decideBatch,
  idempotencyScope,
  type BatchOutcome,
  type BatchPlacement,
  type BatchState,
  type PlacementTerms,
} from './place-batch.domain';
import { InsufficientBalance, PairNotTradable, StakeOutOfBounds, StalePrice } from './place-trade.domain';

const now = Date.UTC(2026, 10, 21, 12, 0, 0);
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

type Funds = { real: number; bonus: number; demo: number };

function state(
  balances: Record<string, Funds>,
  more: Partial<BatchState<PlacementTerms>> = {},
): BatchState<PlacementTerms> {
  return {
    now,
    stakeCentsMax: 500_000,
    balances: new Map(Object.entries(balances)),
    pairs: new Map([
      ['BTCUSDT', { symbol: 'BTCUSDT', active: true, payoutPct: 80 }],
      ['EURUSD', { symbol: 'EURUSD', active: false, payoutPct: 75 }],
      ['GBPUSD', { symbol: 'GBPUSD', active: true, payoutPct: 85 }],
    ]),
    latestTicks: new Map([
      ['BTCUSDT', { price: 97_000.5, atMs: now - 200, tickId: null }],
      ['EURUSD', { price: 1.16, atMs: now - 200, tickId: null }],
      ['GBPUSD', { price: 1.31, atMs: now - 60_000, tickId: null }],
    ]),
    activeBonusCents: new Map(),
    committed: new Map(),
    ...more,
  };
}

function placement(userId: string, amountCents: number, more: Partial<BatchPlacement> = {}): BatchPlacement {
  return {
    userId,
    pair: 'BTCUSDT',
    direction: 'UP',
    amountCents,
    durationSec: 60,
    accountType: 'real',
    ...more,
  };
}

/** Each outcome as `accepted cash+bonus`, `replay …`, `conflict` or the refusal's code. */
function summary(outcomes: readonly BatchOutcome<PlacementTerms>[]): string[] {
  return outcomes.map((o) => {
    switch (o.kind) {
      case 'accepted':
        return `accepted ${o.trade.stakeFromCashCents}+${o.trade.stakeFromBonusCents}`;
      case 'replay-in-batch':
        return `replay #${o.index}`;
      case 'replay-committed':
        return 'replay committed';
      case 'conflict':
        return 'conflict';
      case 'refused':
        return o.error.code;
    }
  });
}

describe('decideBatch', () => {
  it("decides one user's placements in order against the running balance, cash first then bonus", () => {
    const outcomes = decideBatch(
      [placement(A, 600), placement(A, 600), placement(A, 400), placement(A, 300), placement(A, 100)],
      state({ [A]: { real: 1_000, bonus: 500, demo: 0 } }),
    );
    expect(summary(outcomes)).toEqual([
      'accepted 600+0',
      'accepted 400+200',
      'INSUFFICIENT_FUNDS',
      'accepted 0+300',
      'INSUFFICIENT_FUNDS',
    ]);
    expect(outcomes[2]).toEqual({ kind: 'refused', error: new InsufficientBalance() });
  });

  it('answers each refusal with the error a lone placement gets, and a refusal moves no money', () => {
    const outcomes = decideBatch(
      [
        placement(A, 1_000, { pair: 'NOPE' }),
        placement(A, 1_000, { pair: 'EURUSD' }),
        placement(A, 1_000, { pair: 'GBPUSD' }),
        placement(A, 600_000),
        placement(A, 50),
        placement(A, 1_000, { durationSec: 61 }),
        placement(B, 2_500),
        placement(A, 1_000),
        placement(B, 1),
      ],
      state({ [A]: { real: 1_000, bonus: 0, demo: 0 }, [B]: { real: 0, bonus: 0, demo: 0 } }),
    );
    expect(summary(outcomes)).toEqual([
      'UNKNOWN_PAIR',
      'PAIR_INACTIVE',
      'STALE_PRICE',
      'STAKE_OUT_OF_BOUNDS',
      'STAKE_OUT_OF_BOUNDS',
      'INVALID_DURATION',
      'INSUFFICIENT_FUNDS',
      'accepted 1000+0',
      'STAKE_OUT_OF_BOUNDS',
    ]);
    expect(outcomes.slice(0, 4)).toEqual([
      { kind: 'refused', error: new PairNotTradable('NOPE', 'unknown') },
      { kind: 'refused', error: new PairNotTradable('EURUSD', 'inactive') },
      { kind: 'refused', error: new StalePrice('GBPUSD') },
      { kind: 'refused', error: new StakeOutOfBounds('Maximum trade amount is $5,000.00') },
    ]);
  });

  it("applies each user's bonus stake cap and books demo stakes apart from real ones", () => {
    const outcomes = decideBatch(
      [
        placement(A, 1_001),
        placement(A, 1_000),
        placement(A, 5_000, { accountType: 'demo' }),
        placement(B, 1_001),
        placement(A, 5_001, { accountType: 'demo' }),
      ],
      state(
        { [A]: { real: 1_000, bonus: 5_000, demo: 10_000 }, [B]: { real: 2_000, bonus: 0, demo: 0 } },
        { activeBonusCents: new Map([[A, 5_000]]) },
      ),
    );
    expect(summary(outcomes)).toEqual([
      'STAKE_OUT_OF_BOUNDS',
      'accepted 1000+0',
      'accepted 5000+0',
      'accepted 1001+0',
      'INSUFFICIENT_FUNDS',
    ]);
    expect(outcomes[0]).toEqual({
      kind: 'refused',
      error: new StakeOutOfBounds('With an active bonus the maximum stake is $10.00'),
    });
  });

  it('replays a key repeated in the batch with the same body, and refuses it with another', () => {
    const outcomes = decideBatch(
      [
        placement(A, 1_000, { idempotencyKey: 'k' }),
        placement(A, 1_000, { idempotencyKey: 'k' }),
        placement(A, 1_000, { idempotencyKey: 'k', direction: 'DOWN' }),
        placement(B, 1_000, { idempotencyKey: 'k' }),
        placement(A, 1_000, { idempotencyKey: 'k' }),
      ],
      state({ [A]: { real: 5_000, bonus: 0, demo: 0 }, [B]: { real: 5_000, bonus: 0, demo: 0 } }),
    );
    // Keys are the user's own: B's `k` is a trade of its own.
    expect(summary(outcomes)).toEqual([
      'accepted 1000+0',
      'replay #0',
      'conflict',
      'accepted 1000+0',
      'replay #0',
    ]);
    expect(outcomes[2]).toEqual({ kind: 'conflict', idempotencyKey: 'k' });
  });

  it('checks a key before the rules, against trades committed before the batch', () => {
    const prior: PlacementTerms = {
      pair: 'BTCUSDT',
      direction: 'UP',
      amountCents: 1_000,
      durationSec: 60,
      accountType: 'real',
    };
    const outcomes = decideBatch(
      [
        placement(A, 1_000, { idempotencyKey: 'old' }),
        placement(A, 1_000, { idempotencyKey: 'old', durationSec: 120 }),
        placement(A, 50, { idempotencyKey: 'old' }),
        placement(A, 1_000, { idempotencyKey: 'new' }),
      ],
      // No money left: the replay answers anyway, as the first trade already holds its stake.
      state(
        { [A]: { real: 0, bonus: 0, demo: 0 } },
        { committed: new Map([[idempotencyScope(A, 'old'), prior]]) },
      ),
    );
    expect(summary(outcomes)).toEqual(['replay committed', 'conflict', 'conflict', 'INSUFFICIENT_FUNDS']);
    expect(outcomes[0]).toEqual({ kind: 'replay-committed', prior });
  });

  it('decides a key again after its first placement was refused, as a retry alone would be', () => {
    const outcomes = decideBatch(
      [
        placement(A, 9_000, { idempotencyKey: 'k' }),
        placement(A, 1_000, { idempotencyKey: 'k' }),
        placement(A, 9_000, { idempotencyKey: 'k' }),
      ],
      state({ [A]: { real: 2_000, bonus: 0, demo: 0 } }),
    );
    expect(summary(outcomes)).toEqual(['INSUFFICIENT_FUNDS', 'accepted 1000+0', 'conflict']);
  });

  it('refuses to decide for a user whose balances were not read: a bug, not a refusal', () => {
    expect(() => decideBatch([placement(B, 1_000)], state({ [A]: { real: 0, bonus: 0, demo: 0 } }))).toThrow(
      /balances were not read/,
    );
  });

  it('comes to the same outcomes as the same placements decided one at a time', () => {
    let seed = 17;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const users = [A, B, '00000000-0000-4000-8000-00000000000c'];
    for (let round = 0; round < 200; round++) {
      const placements = Array.from({ length: 12 }, () =>
        placement(users[random(3)]!, [50, 100, 700, 1_500, 4_000][random(5)]!, {
          pair: ['BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'GBPUSD', 'NOPE'][random(5)]!,
          direction: random(2) === 0 ? 'UP' : 'DOWN',
          accountType: random(4) === 0 ? 'demo' : 'real',
          idempotencyKey: random(3) === 0 ? `k${random(3)}` : undefined,
        }),
      );
      const start = state(
        Object.fromEntries(
          users.map((u) => [u, { real: random(5_000), bonus: random(3_000), demo: random(4_000) }]),
        ),
        { activeBonusCents: new Map(random(2) === 0 ? [[A, 10_000]] : []) },
      );
      expect(summary(decideBatch(placements, start))).toEqual(oneAtATime(placements, start));
    }
  });
});

/** The sequential model: batches of one, each committing before the next is decided. */
function oneAtATime(placements: readonly BatchPlacement[], start: BatchState<PlacementTerms>): string[] {
  const balances = new Map(start.balances);
  const committed = new Map(start.committed);
  const firstIndex = new Map<string, number>();
  return placements.map((p, index) => {
    const [outcome] = decideBatch([p], { ...start, balances, committed });
    if (outcome!.kind === 'replay-committed') {
      return `replay #${firstIndex.get(idempotencyScope(p.userId, p.idempotencyKey!))}`;
    }
    if (outcome!.kind === 'accepted') {
      const { trade } = outcome!;
      balances.set(
        p.userId,
        fundsAfterStake(balances.get(p.userId)!, trade.accountType, {
          fromCashCents: trade.stakeFromCashCents,
          fromBonusCents: trade.stakeFromBonusCents,
        }),
      );
      if (p.idempotencyKey !== undefined) {
        committed.set(idempotencyScope(p.userId, p.idempotencyKey), p);
        firstIndex.set(idempotencyScope(p.userId, p.idempotencyKey), index);
      }
    }
    return summary([outcome!])[0]!;
  });
}
