import type { ReferenceCheckRecord } from '../settlement.domain';
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import { findSettledTrades, readSettledAfter, type SettledTradeRow } from '@updown/order';
import { pinTicks, receiptTicks, type ReceiptTicks, type StoredChainTick } from '@updown/price-ingest';
import {
  createLoopSlicer,
  moveCursor,
  readCursor,
  type Database,
  type LoopSlicer,
  type SigningKey,
} from '@updown/runtime';
import { canonicalJson } from '@updown/verify/canonical';
import { priceText } from '@updown/verify/chain';
import { entryIdsByKey } from '@updown/wallet';
import { settlementKey } from '../settlement.domain';
import { receiptIdOf } from './receipt-id';
import {
  buildReceipt,
  receiptOverdue,
  receiptReady,
  type Receipt,
  type ReceiptEvidence,
  type ReceiptTick,
} from './receipt.domain';

/** The issuer's cursor in `outbox_cursors`: the settled trades before it have their receipts. */
export const RECEIPTS_CURSOR = 'settlement.receipts';

/** Settled trades one issuing transaction reads after its cursor. */
export const RECEIPT_BATCH_MAX = 1_000;

export interface IssueReceiptsOptions {
  readonly key: SigningKey;
  readonly nowMs: number;
  readonly batch: number;
  /** How long after settlement a receipt may wait for its proof before it counts as overdue. */
  readonly waitMsMax: number;
}

export interface IssuedReceipts {
  readonly issued: number;
  /** Trades whose receipt cannot be proven yet (no checkpoint, or no tick after the expiry): in the backlog. */
  readonly waiting: number;
  /** Of the waiting, those settled `waitMsMax` ago or more: a feed that stopped at their expiry, or no checkpoints. */
  readonly overdue: number;
  /**
   * Trades that entered or settled on ticks stored before the chain existed: no receipt could prove
   * them, and the cursor passes them.
   */
  readonly skipped: number;
}

/** Backlog trades one pass looks at again. */
const BACKLOG_PASS_MAX = 1_000;

/**
 * One pass of receipt issuing, in one transaction: the backlog of trades that could not be proven
 * before, then the settled trades after the cursor (order's `readSettledAfter`, the settled events'
 * own order); for each, the chained ticks and covering checkpoints; a signed receipt for each one
 * the chain proves now, the rest into the backlog (so a trade on a stalled feed holds back no
 * other); the ticks the receipts name pinned against retention; the cursor moved past the batch.
 * Signing happens here, in batches and off the settlement transaction, so settling pays nothing
 * for receipts.
 */
export async function issueReceipts(
  db: Kysely<Database>,
  options: IssueReceiptsOptions,
): Promise<IssuedReceipts> {
  return db.transaction().execute(async (trx) => {
    const backlog = await trx
      .selectFrom('receipt_backlog')
      .select('trade_id')
      .orderBy('settled_at_ms')
      .limit(BACKLOG_PASS_MAX)
      .forUpdate()
      .skipLocked()
      .execute();
    const retried = await findSettledTrades(
      trx,
      backlog.map((b) => b.trade_id),
    );
    const cursor = await readCursor(trx, RECEIPTS_CURSOR);
    const fresh = await readSettledAfter(trx, cursor, options.batch);
    const trades = [...retried, ...fresh];
    if (trades.length === 0) return { issued: 0, waiting: 0, overdue: 0, skipped: 0 };
    const evidence = await evidenceOf(trx, trades);
    const entryIds = await entryIdsByKey(
      trx,
      trades.map((t) => settlementKey(t.id)),
    );
    const issued: { trade: SettledTradeRow; receipt: Receipt; ticks: StoredChainTick[] }[] = [];
    const waiting: SettledTradeRow[] = [];
    let skipped = 0;
    // A full batch is a thousand receipts to build and sign: the loop turns between slices of it,
    // so placements in the same process never wait for the whole batch.
    const slicer = createLoopSlicer();
    for (const trade of trades) {
      if (slicer.due()) await slicer.yield();
      const found = evidence.get(evidenceKey(trade))!;
      if (found.exitUnchained || found.entry === null) {
        skipped++;
        continue;
      }
      const chain = receiptEvidence(found);
      if (!receiptReady(chain)) {
        waiting.push(trade);
        continue;
      }
      const ledgerKey = settlementKey(trade.id);
      const entryId = entryIds.get(ledgerKey);
      const receipt = buildReceipt({
        receiptId: receiptIdOf(trade.id),
        trade: {
          tradeId: trade.id,
          userId: trade.user_id,
          pair: trade.pair,
          direction: trade.direction,
          accountType: trade.account_type,
          amountCents: trade.amount_cents,
          payoutPct: trade.payout_pct,
          acceptedAtMs: trade.accepted_at_ms,
          expiryAtMs: trade.expiry_at_ms,
          entryPrice: priceText(trade.entry_price),
          status: trade.status,
          pnlCents: trade.pnl_cents,
          settledAtMs: trade.settled_at_ms,
          referenceCheck: (trade.reference_check as ReferenceCheckRecord | null) ?? null,
        },
        evidence: chain,
        ledgerKey,
        ledgerEntryIds: entryId === undefined ? [] : [entryId],
        issuedAtMs: options.nowMs,
      });
      const named = [found.entry, found.exit, found.after].filter((t) => t !== null);
      issued.push({ trade, receipt, ticks: named });
    }
    if (issued.length > 0) await insertReceipts(trx, issued, options.key, slicer);
    await pinTicks(
      trx,
      issued.flatMap((i) => i.ticks.map((t) => t.id)),
    );
    await updateBacklog(
      trx,
      backlog.map((b) => b.trade_id),
      waiting,
    );
    const last = fresh[fresh.length - 1];
    if (last) await moveCursor(trx, RECEIPTS_CURSOR, last.position);
    const overdue = waiting.filter((t) => receiptOverdue(t.settled_at_ms, options.nowMs, options.waitMsMax));
    return { issued: issued.length, waiting: waiting.length, overdue: overdue.length, skipped };
  });
}

/** The backlog after a pass: the trades it looked at leave it, those still waiting (re)enter it. */
async function updateBacklog(
  trx: Transaction<Database>,
  looked: readonly string[],
  waiting: readonly SettledTradeRow[],
): Promise<void> {
  if (looked.length > 0)
    await trx
      .deleteFrom('receipt_backlog')
      .where('trade_id', 'in', [...looked])
      .execute();
  if (waiting.length > 0) {
    await trx
      .insertInto('receipt_backlog')
      .values(waiting.map((t) => ({ trade_id: t.id, settled_at_ms: t.settled_at_ms })))
      .onConflict((oc) => oc.column('trade_id').doNothing())
      .execute();
  }
}

function evidenceKey(trade: SettledTradeRow): string {
  return `${trade.pair}\u0000${trade.entry_at_ms}\u0000${trade.entry_price}\u0000${trade.expiry_at_ms}`;
}

/** The chain's ticks for each distinct (pair, entry instant and price, expiry) of the batch: one statement. */
async function evidenceOf(
  trx: Transaction<Database>,
  trades: readonly SettledTradeRow[],
): Promise<Map<string, ReceiptTicks>> {
  const distinct = new Map<string, SettledTradeRow>();
  for (const trade of trades) distinct.set(evidenceKey(trade), trade);
  const queries = [...distinct.values()].map((t) => ({
    pair: t.pair,
    entryAtMs: t.entry_at_ms,
    entryPrice: t.entry_price,
    expiryAtMs: t.expiry_at_ms,
  }));
  const found = await receiptTicks(trx, queries);
  const keys = [...distinct.keys()];
  return new Map(keys.map((key, i) => [key, found[i]!]));
}

function receiptEvidence(ticks: ReceiptTicks): ReceiptEvidence {
  const plain = (t: StoredChainTick | null): ReceiptTick | null =>
    t && { seq: t.seq, atMs: t.atMs, price: t.price, prevHash: t.prevHash, hash: t.hash };
  return {
    entry: plain(ticks.entry),
    exit: plain(ticks.exit),
    after: plain(ticks.after),
    entryCheckpoint: ticks.entryCheckpoint,
    exitCheckpoint: ticks.exitCheckpoint,
  };
}

interface ReceiptRow {
  readonly trade_id: string;
  readonly receipt_id: string;
  readonly user_id: string;
  readonly pair: string;
  readonly body: string;
  readonly key_id: string;
  readonly signature: Buffer;
  readonly entry_checkpoint: number | null;
  readonly exit_checkpoint: number | null;
  readonly issued_at_ms: number;
}

async function insertReceipts(
  trx: Transaction<Database>,
  issued: readonly { trade: SettledTradeRow; receipt: Receipt }[],
  key: SigningKey,
  slicer: LoopSlicer,
): Promise<void> {
  const rows: ReceiptRow[] = [];
  for (const { trade, receipt } of issued) {
    if (slicer.due()) await slicer.yield();
    const body = canonicalJson(receipt);
    rows.push({
      trade_id: trade.id,
      receipt_id: receipt.receiptId,
      user_id: trade.user_id,
      pair: trade.pair,
      body,
      key_id: key.kid,
      signature: Buffer.from(key.signText(body).sig, 'base64url'),
      entry_checkpoint: receipt.checkpoints.entry?.toSeq ?? null,
      exit_checkpoint: receipt.checkpoints.exit?.toSeq ?? null,
      issued_at_ms: receipt.issuedAtMs,
    });
  }
  await sql`
    insert into trade_receipts (trade_id, receipt_id, user_id, pair, body, key_id, signature, entry_checkpoint,
                                exit_checkpoint, issued_at_ms)
    select * from unnest(
      ${rows.map((r) => r.trade_id)}::uuid[], ${rows.map((r) => r.receipt_id)}::uuid[],
      ${rows.map((r) => r.user_id)}::uuid[], ${rows.map((r) => r.pair)}::text[], ${rows.map((r) => r.body)}::text[],
      ${rows.map((r) => r.key_id)}::text[], ${rows.map((r) => r.signature)}::bytea[],
      ${rows.map((r) => r.entry_checkpoint)}::bigint[], ${rows.map((r) => r.exit_checkpoint)}::bigint[],
      ${rows.map((r) => r.issued_at_ms)}::bigint[])
    on conflict (trade_id) do nothing`.execute(trx);
}
