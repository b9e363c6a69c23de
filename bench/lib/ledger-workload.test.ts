import { describe, expect, it } from 'vitest';
import { accountCode, resolveTransfer } from '@updown/wallet';
import { bareBatch, benchTransfer, PROFIT_CENTS, seedTransfer, STAKE_CENTS } from './ledger-workload';

const owners = [
  '5f0c8a1e-1d2b-4c3d-8e4f-000000000001',
  '5f0c8a1e-1d2b-4c3d-8e4f-000000000002',
  '5f0c8a1e-1d2b-4c3d-8e4f-000000000003',
];

describe('benchTransfer', () => {
  it('is a valid transfer that always posts to a house account', () => {
    for (let seq = 0; seq < 50; seq++) {
      const command = benchTransfer(owners, 'run', seq);
      expect(resolveTransfer(command).ok).toBe(true);
      expect(command.postings.some((p) => 'system' in p.account && p.account.system === 'house_demo')).toBe(
        true,
      );
    }
  });

  it('alternates a lost stake and a won payout', () => {
    expect(benchTransfer(owners, 'run', 0).kind).toBe('trade_loss');
    expect(benchTransfer(owners, 'run', 0).postings.map((p) => p.amountCents)).toEqual([
      -STAKE_CENTS,
      STAKE_CENTS,
    ]);
    expect(benchTransfer(owners, 'run', 1).kind).toBe('trade_payout');
    expect(benchTransfer(owners, 'run', 1).postings.map((p) => p.amountCents)).toEqual([
      -STAKE_CENTS,
      STAKE_CENTS + PROFIT_CENTS,
      -PROFIT_CENTS,
    ]);
  });

  it('gives every transfer its own key', () => {
    const keys = new Set(
      Array.from({ length: 100 }, (_, seq) => benchTransfer(owners, 'run', seq).idempotencyKey),
    );
    expect(keys.size).toBe(100);
  });

  it('funds in-play money with a valid transfer', () => {
    expect(resolveTransfer(seedTransfer(owners[0]!, 'run')).ok).toBe(true);
  });
});

describe('bareBatch', () => {
  it('writes the rows the engine writes for the same transfers', () => {
    const codes = new Map<string, number>();
    const idOf = (code: string) => {
      if (!codes.has(code)) codes.set(code, codes.size + 1);
      return codes.get(code)!;
    };
    const commands = Array.from({ length: 10 }, (_, i) => benchTransfer(owners, 'run', 20 + i));
    for (const command of commands) {
      for (const p of command.postings) idOf(accountCode(p.account, command.idempotencyKey));
    }
    const batch = bareBatch(owners, 'run', 20, 10, codes);

    expect(batch.entryKeys).toEqual(commands.map((c) => c.idempotencyKey));
    expect(batch.entryKinds).toEqual(commands.map((c) => c.kind));
    expect(batch.entryRefs).toEqual(commands.map((c) => JSON.stringify(c.ref)));
    const enginePostings = commands.flatMap((c) =>
      c.postings.map((p) => [
        c.idempotencyKey,
        idOf(accountCode(p.account, c.idempotencyKey)),
        p.amountCents,
      ]),
    );
    expect(
      batch.postingKeys.map((key, i) => [key, batch.postingAccountIds[i], batch.postingAmounts[i]]),
    ).toEqual(enginePostings);
    // One netted change per account, in id order, summing to zero like the postings.
    expect(batch.accountIds).toEqual([...new Set(batch.postingAccountIds)].sort((a, b) => a - b));
    for (const [i, id] of batch.accountIds.entries()) {
      const net = batch.postingAmounts
        .filter((_, j) => batch.postingAccountIds[j] === id)
        .reduce((a, b) => a + b, 0);
      expect(batch.accountDeltas[i]).toBe(net);
    }
    expect(batch.accountDeltas.reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('refuses an account the reference does not have', () => {
    expect(() => bareBatch(owners, 'run', 0, 1, new Map())).toThrow(/no account/);
  });
});
