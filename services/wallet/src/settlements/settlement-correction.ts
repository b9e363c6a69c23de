import type { Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { ownerShard } from '../ledger/ledger.domain';
import { transfer } from '../ledger/ledger.repository';

/** The ledger kind of a correction an admin makes when a dispute's replay finds a wrong result. */
export const SETTLEMENT_CORRECTION_KIND = 'settlement_correction';

export interface SettlementCorrection {
  /** One correction per dispute, ever: the idempotency key. */
  readonly disputeId: string;
  readonly tradeId: string;
  readonly userId: string;
  readonly accountType: 'demo' | 'real';
  /** Cents to the trader; negative reclaims from them. Never 0. */
  readonly amountCents: number;
}

export function correctionKey(disputeId: string): string {
  return `dispute:${disputeId}:correction`;
}

/**
 * Pays (or reclaims) a settlement's difference between the trader's cash account (`real`, or
 * `demo` for a demo trade) and the house's, in the caller's transaction, as its own idempotent
 * entry. The caller holds level 1 (the user's wallet) and its claim on the dispute (level 2); the
 * transfer takes the two accounts as its level-4 step. A reclaim the trader's balance cannot cover
 * fails with `InsufficientFunds` and moves nothing.
 */
export async function postSettlementCorrection(
  trx: Transaction<Database>,
  correction: SettlementCorrection,
): Promise<number> {
  if (!Number.isSafeInteger(correction.amountCents) || correction.amountCents === 0) {
    throw new RangeError('a correction moves a non-zero whole number of cents');
  }
  const real = correction.accountType === 'real';
  const result = await transfer(trx, {
    kind: SETTLEMENT_CORRECTION_KIND,
    idempotencyKey: correctionKey(correction.disputeId),
    postings: [
      {
        account: { owner: correction.userId, type: real ? 'real' : 'demo' },
        amountCents: correction.amountCents,
      },
      { account: { system: real ? 'house_real' : 'house_demo' }, amountCents: -correction.amountCents },
    ],
    ref: { tradeId: correction.tradeId, disputeId: correction.disputeId },
    systemShard: ownerShard(correction.userId),
  });
  return result.entryId;
}
