import { describe, expect, it } from 'vitest';
import {
  canonicalTransfer,
  commandAccountCodes,
  ownerShard,
  resolveTransfer,
  shardFor,
  SYSTEM_ACCOUNT_SHARDS,
  type TransferCommand,
} from './ledger.domain';

const alice = '00000000-0000-4000-8000-00000000000a';
const bob = '00000000-0000-4000-8000-00000000000b';

function command(
  postings: TransferCommand['postings'],
  overrides: Partial<TransferCommand> = {},
): TransferCommand {
  return { kind: 'test', idempotencyKey: 'k1', postings, ...overrides };
}

describe('resolveTransfer', () => {
  it('names accounts and sorts postings by code', () => {
    const result = resolveTransfer(
      command([
        { account: { owner: bob, type: 'real' }, amountCents: 500 },
        { account: { owner: alice, type: 'real' }, amountCents: -500 },
      ]),
    );
    expect(result).toEqual({
      ok: true,
      postings: [
        { code: `user:${alice}:real`, amountCents: -500 },
        { code: `user:${bob}:real`, amountCents: 500 },
      ],
    });
  });

  it('spreads system accounts over shards chosen by the idempotency key', () => {
    const result = resolveTransfer(
      command([
        { account: { system: 'house_real' }, amountCents: -100 },
        { account: { owner: alice, type: 'real' }, amountCents: 100 },
      ]),
    );
    expect(result.ok && result.postings[0]?.code).toBe(
      `house_real:${String(shardFor('k1')).padStart(2, '0')}`,
    );
  });

  it('posts to the shard the command names, in its request hash too', () => {
    const postings = [
      { account: { system: 'house_real' as const }, amountCents: -100 },
      { account: { owner: alice, type: 'real' as const }, amountCents: 100 },
    ];
    const chosen = resolveTransfer(command(postings, { systemShard: 7 }));
    expect(chosen.ok && chosen.postings[0]?.code).toBe('house_real:07');
    expect(commandAccountCodes(command(postings, { systemShard: 7 }))).toEqual([
      'house_real:07',
      `user:${alice}:real`,
    ]);
    const byKey = resolveTransfer(command(postings));
    expect(chosen.ok && byKey.ok && canonicalTransfer('test', chosen.postings)).not.toBe(
      byKey.ok && canonicalTransfer('test', byKey.postings),
    );
    for (const systemShard of [-1, 16, 2.5]) {
      expect(resolveTransfer(command(postings, { systemShard }))).toMatchObject({
        ok: false,
        problem: 'system_shard',
      });
    }
  });

  it.each([
    ['unbalanced', [-100, 99]],
    ['amount_zero', [0, 0]],
    ['amount_not_integer', [-10.5, 10.5]],
    ['amount_not_integer', [Number.NaN, 1]],
    ['amount_too_large', [-2e12, 2e12]],
  ])('refuses %s postings %j', (problem, [a, b]) => {
    const result = resolveTransfer(
      command([
        { account: { owner: alice, type: 'real' }, amountCents: a! },
        { account: { owner: bob, type: 'real' }, amountCents: b! },
      ]),
    );
    expect(result).toMatchObject({ ok: false, problem });
  });

  it('refuses a single posting, a repeated account, a bad owner, a bad kind and an empty key', () => {
    const one = [{ account: { owner: alice, type: 'real' as const }, amountCents: 0 }];
    expect(resolveTransfer(command(one))).toMatchObject({ problem: 'too_few_postings' });
    const twice = [
      { account: { owner: alice, type: 'real' as const }, amountCents: -1 },
      { account: { owner: alice.toUpperCase(), type: 'real' as const }, amountCents: 1 },
    ];
    expect(resolveTransfer(command(twice))).toMatchObject({ problem: 'duplicate_account' });
    const badOwner = [
      { account: { owner: 'alice', type: 'real' as const }, amountCents: -1 },
      { account: { owner: bob, type: 'real' as const }, amountCents: 1 },
    ];
    expect(resolveTransfer(command(badOwner))).toMatchObject({ problem: 'bad_owner' });
    const ok = [
      { account: { owner: alice, type: 'real' as const }, amountCents: -1 },
      { account: { owner: bob, type: 'real' as const }, amountCents: 1 },
    ];
    expect(resolveTransfer(command(ok, { kind: 'Drop Table' }))).toMatchObject({ problem: 'kind' });
    expect(resolveTransfer(command(ok, { idempotencyKey: '' }))).toMatchObject({
      problem: 'idempotency_key',
    });
  });
});

describe('shardFor', () => {
  it('is stable and covers every shard', () => {
    expect(shardFor('abc')).toBe(shardFor('abc'));
    const seen = new Set(Array.from({ length: 2000 }, (_, i) => shardFor(`key-${i}`)));
    expect(seen.size).toBe(SYSTEM_ACCOUNT_SHARDS);
  });
});

describe('canonicalTransfer', () => {
  it('differs when an amount differs', () => {
    expect(canonicalTransfer('x', [{ code: 'a', amountCents: 1 }])).not.toBe(
      canonicalTransfer('x', [{ code: 'a', amountCents: 2 }]),
    );
  });
});

describe('ownerShard', () => {
  it("is the owner id's last hex digit, the digit PostgreSQL reads as get_byte(uuid_send(id), 15) % 16", () => {
    expect(ownerShard(alice)).toBe(10);
    expect(ownerShard(bob)).toBe(11);
    expect(ownerShard('00000000-0000-4000-8000-0000000000F3')).toBe(3);
    expect(() => ownerShard('not-a-uuid')).toThrow(RangeError);
  });
});
