import { describe, expect, it } from 'vitest';
import { bonusMaxStakeCents } from '../bonus/bonus.domain';
import { fundsAfterStake, splitStake, stakeHoldKey, stakeHoldTransfer } from './stake.domain';

const funds = { real: 5_000, bonus: 10_000, demo: 1_000 };

describe('splitStake', () => {
  it('takes a real stake from cash first, then bonus', () => {
    expect(splitStake(funds, undefined, { accountType: 'real', amountCents: 3_000 })).toEqual({
      ok: true,
      fromCashCents: 3_000,
      fromBonusCents: 0,
    });
    expect(splitStake(funds, undefined, { accountType: 'real', amountCents: 8_000 })).toEqual({
      ok: true,
      fromCashCents: 5_000,
      fromBonusCents: 3_000,
    });
    expect(splitStake(funds, undefined, { accountType: 'real', amountCents: 15_001 })).toEqual({
      ok: false,
      problem: 'insufficient_funds',
    });
  });

  it('takes a demo stake from demo only, and demo stakes are not bound by a bonus', () => {
    expect(splitStake(funds, 100, { accountType: 'demo', amountCents: 1_000 })).toEqual({
      ok: true,
      fromCashCents: 1_000,
      fromBonusCents: 0,
    });
    expect(splitStake(funds, undefined, { accountType: 'demo', amountCents: 1_001 })).toEqual({
      ok: false,
      problem: 'insufficient_funds',
    });
  });

  it('caps a real stake at 20% of an active bonus, before looking at the balances', () => {
    expect(bonusMaxStakeCents(5_000)).toBe(1_000);
    expect(bonusMaxStakeCents(4_999)).toBe(999);
    expect(splitStake(funds, 5_000, { accountType: 'real', amountCents: 1_000 }).ok).toBe(true);
    expect(splitStake(funds, 5_000, { accountType: 'real', amountCents: 1_001 })).toEqual({
      ok: false,
      problem: 'bonus_stake_cap',
      capCents: 1_000,
    });
    expect(
      splitStake({ ...funds, real: 0, bonus: 0 }, 5_000, { accountType: 'real', amountCents: 2_000 }),
    ).toEqual({
      ok: false,
      problem: 'bonus_stake_cap',
      capCents: 1_000,
    });
  });
});

describe('stakeHoldTransfer', () => {
  const owner = '00000000-0000-4000-8000-000000000001';
  it('moves each part of the stake to its in-play account, under one key per trade', () => {
    const entry = stakeHoldTransfer(
      { tradeId: 't1', userId: owner, accountType: 'real' },
      { fromCashCents: 700, fromBonusCents: 300 },
    );
    expect(entry).toEqual({
      kind: 'trade_stake',
      idempotencyKey: stakeHoldKey('t1'),
      ref: { tradeId: 't1' },
      postings: [
        { account: { owner, type: 'real' }, amountCents: -700 },
        { account: { owner, type: 'real_in_play' }, amountCents: 700 },
        { account: { owner, type: 'bonus' }, amountCents: -300 },
        { account: { owner, type: 'bonus_in_play' }, amountCents: 300 },
      ],
    });
    expect(
      stakeHoldTransfer(
        { tradeId: 't2', userId: owner, accountType: 'demo' },
        { fromCashCents: 500, fromBonusCents: 0 },
      ).postings,
    ).toEqual([
      { account: { owner, type: 'demo' }, amountCents: -500 },
      { account: { owner, type: 'demo_in_play' }, amountCents: 500 },
    ]);
  });
});

describe('fundsAfterStake', () => {
  it('leaves the funds the next stake is decided on, without touching the ones it was given', () => {
    const before = { ...funds, real_in_play: 7 };
    expect(fundsAfterStake(before, 'real', { fromCashCents: 5_000, fromBonusCents: 3_000 })).toEqual({
      real: 0,
      bonus: 7_000,
      demo: 1_000,
      real_in_play: 7,
    });
    expect(fundsAfterStake(before, 'demo', { fromCashCents: 400, fromBonusCents: 0 })).toEqual({
      ...before,
      demo: 600,
    });
    expect(before).toEqual({ ...funds, real_in_play: 7 });
  });
});
