import type { Kysely } from 'kysely';
import { chainSegment, findCheckpoint, type ChainTick, type SignedCheckpoint } from '@updown/price-ingest';
import type { Database, Signature } from '@updown/runtime';
import type { Receipt, ReceiptTick } from './receipt.domain';

/** One side's proof: the signed checkpoint and the chain segment from the receipt's tick to its head. */
export interface ReceiptProof {
  readonly checkpoint: SignedCheckpoint;
  readonly segment: readonly ChainTick[];
}

/** A receipt as `GET /api/trades/{id}/receipt` serves it (docs/receipts.md). */
export interface ReceiptDocument {
  readonly receipt: Receipt;
  readonly signature: Signature;
  readonly proof: { readonly entry: ReceiptProof | null; readonly exit: ReceiptProof | null };
}

export type ReceiptLookup =
  | { readonly status: 'issued'; readonly document: ReceiptDocument }
  /** No receipt (yet): the trade is open, its checkpoint is not signed, or there is no such trade. */
  | { readonly status: 'pending' };

/**
 * The stored receipt of a trade, with its proof assembled from the tick log and the checkpoints.
 * Callers have the trade already (whose it is, whether it settled): this reads receipts only.
 */
export async function loadReceipt(db: Kysely<Database>, tradeId: string): Promise<ReceiptLookup> {
  const row = await db
    .selectFrom('trade_receipts')
    .selectAll()
    .where('trade_id', '=', tradeId)
    .executeTakeFirst();
  if (!row) return { status: 'pending' };
  const receipt = JSON.parse(row.body) as Receipt;
  const [entry, exit] = await Promise.all([
    proofOf(db, receipt.pair, receipt.entryTick, row.entry_checkpoint),
    proofOf(db, receipt.pair, receipt.exitTick ?? receipt.afterExpiryTick, row.exit_checkpoint),
  ]);
  return {
    status: 'issued',
    document: {
      receipt,
      signature: { alg: 'Ed25519', kid: row.key_id, sig: row.signature.toString('base64url') },
      proof: { entry, exit },
    },
  };
}

/**
 * The proof from `from` to the checkpoint ending at `toSeq`, from the ticks stored now: a tick
 * changed, deleted or inserted since the receipt was issued shows in it, and the verifier names
 * it. Null when there is nothing to prove, or when retention has deleted the segment (every tick
 * left in it is one a receipt pinned; `TICK_RETENTION_DAYS`): the receipt's own ticks and the
 * checkpoint are kept, the ticks between them are not.
 */
async function proofOf(
  db: Kysely<Database>,
  pair: string,
  from: ReceiptTick | null,
  toSeq: number | null,
): Promise<ReceiptProof | null> {
  if (from === null || toSeq === null) return null;
  const [checkpoint, segment] = await Promise.all([
    findCheckpoint(db, pair, toSeq),
    chainSegment(db, pair, from.seq, toSeq),
  ]);
  if (!checkpoint) return null;
  const whole = segment.length === toSeq - from.seq + 1;
  if (!whole && segment.every((tick) => tick.pinned)) return null;
  return { checkpoint, segment: segment.map(({ id: _id, pinned: _pinned, ...tick }) => tick) };
}
