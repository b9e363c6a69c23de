import { accountCode, type AccountRef, type Posting, type TransferCommand } from '@updown/wallet';

/**
 * The transfers the ledger benchmark moves: settlement's two shapes on demo money, alternating, so
 * every transfer touches a (sharded) house account as every settled trade does.
 *
 * - a lost trade: the stake leaves the user's `demo_in_play` for `house_demo` (two postings);
 * - a won trade: the stake returns from `demo_in_play` to `demo` with the profit, which the house
 *   pays (three postings).
 *
 * Everything here is a pure function of the sequence number, so the engine and the bare reference
 * write the same rows.
 */

export const STAKE_CENTS = 100;
/** 85% payout on a $1 stake. */
export const PROFIT_CENTS = 85;
/**
 * What each user's `demo_in_play` holds before the run: far more than any run drains (a full run
 * moves a few hundred transfers per user, at most one stake each), so no transfer is refused.
 */
export const SEED_IN_PLAY_CENTS = 100_000_000;

export interface Legs {
  readonly kind: 'trade_loss' | 'trade_payout';
  readonly postings: readonly Posting[];
}

export function transferLegs(owners: readonly string[], seq: number): Legs {
  const owner = owners[seq % owners.length]!;
  if (seq % 2 === 0) {
    return {
      kind: 'trade_loss',
      postings: [
        { account: { owner, type: 'demo_in_play' }, amountCents: -STAKE_CENTS },
        { account: { system: 'house_demo' }, amountCents: STAKE_CENTS },
      ],
    };
  }
  return {
    kind: 'trade_payout',
    postings: [
      { account: { owner, type: 'demo_in_play' }, amountCents: -STAKE_CENTS },
      { account: { owner, type: 'demo' }, amountCents: STAKE_CENTS + PROFIT_CENTS },
      { account: { system: 'house_demo' }, amountCents: -PROFIT_CENTS },
    ],
  };
}

/** A UUID-shaped trade id made from the sequence number, for the entry's `ref`. */
export function tradeIdFor(seq: number): string {
  return `00000000-0000-4000-8000-${seq.toString(16).padStart(12, '0')}`;
}

export function idempotencyKeyFor(runId: string, seq: number): string {
  return `bench:${runId}:${seq}`;
}

/** The engine's command for transfer `seq`. */
export function benchTransfer(owners: readonly string[], runId: string, seq: number): TransferCommand {
  const legs = transferLegs(owners, seq);
  return {
    kind: legs.kind,
    idempotencyKey: idempotencyKeyFor(runId, seq),
    postings: legs.postings,
    ref: { tradeId: tradeIdFor(seq) },
  };
}

/** The set-up transfer that funds one user's in-play account from the demo issuance account. */
export function seedTransfer(owner: string, runId: string): TransferCommand {
  return {
    kind: 'bench_seed',
    idempotencyKey: `bench:${runId}:seed:${owner}`,
    postings: [
      { account: { system: 'demo_issuance' }, amountCents: -SEED_IN_PLAY_CENTS },
      { account: { owner, type: 'demo_in_play' }, amountCents: SEED_IN_PLAY_CENTS },
    ],
  };
}

/**
 * The rows a batch of transfers writes, as parallel arrays for `unnest`: one entry per transfer,
 * one posting per leg, one balance change per account touched (netted, in account id order).
 */
export interface BareBatch {
  readonly entryKinds: string[];
  readonly entryKeys: string[];
  readonly entryRefs: string[];
  readonly postingKeys: string[];
  readonly postingAccountIds: number[];
  readonly postingAmounts: number[];
  readonly accountIds: number[];
  readonly accountDeltas: number[];
}

/**
 * The bare reference's rows for transfers `firstSeq ..< firstSeq + count`: the same entries,
 * postings and balance changes the engine writes for them, with the account ids looked up in
 * memory instead of checked in the database.
 */
export function bareBatch(
  owners: readonly string[],
  runId: string,
  firstSeq: number,
  count: number,
  accountIds: ReadonlyMap<string, number>,
): BareBatch {
  const batch: BareBatch = {
    entryKinds: [],
    entryKeys: [],
    entryRefs: [],
    postingKeys: [],
    postingAccountIds: [],
    postingAmounts: [],
    accountIds: [],
    accountDeltas: [],
  };
  const deltas = new Map<number, number>();
  for (let seq = firstSeq; seq < firstSeq + count; seq++) {
    const legs = transferLegs(owners, seq);
    const key = idempotencyKeyFor(runId, seq);
    batch.entryKinds.push(legs.kind);
    batch.entryKeys.push(key);
    batch.entryRefs.push(JSON.stringify({ tradeId: tradeIdFor(seq) }));
    for (const posting of legs.postings) {
      const id = accountIdOf(accountIds, posting.account, key);
      batch.postingKeys.push(key);
      batch.postingAccountIds.push(id);
      batch.postingAmounts.push(posting.amountCents);
      deltas.set(id, (deltas.get(id) ?? 0) + posting.amountCents);
    }
  }
  for (const [id, delta] of [...deltas].sort((a, b) => a[0] - b[0])) {
    batch.accountIds.push(id);
    batch.accountDeltas.push(delta);
  }
  return batch;
}

function accountIdOf(accountIds: ReadonlyMap<string, number>, ref: AccountRef, key: string): number {
  const code = accountCode(ref, key);
  const id = accountIds.get(code);
  if (id === undefined) throw new Error(`no account ${code} in the bare reference`);
  return id;
}
