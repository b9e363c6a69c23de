import type { Kysely } from 'kysely';
import type { TradeRow } from '@updown/order';
import { receiptTicks } from '@updown/price-ingest';
import type { Database, KeySet } from '@updown/runtime';
import { verifyReceipt } from '@updown/verify';
import { nodeCrypto } from '@updown/verify/node';
import { pnlCents, settlementRule } from '@updown/verify/rules';
import { entryIdsByKey } from '@updown/wallet';
import { payoutBasisPoints, type Receipt } from '../receipts/receipt.domain';
import { loadReceipt } from '../receipts/receipt-document';
import { settlementKey, type Outcome } from '../settlement.domain';
import { replayVerdict, type DisputeReplay, type ReplayStep } from './dispute.domain';

const step = (id: string, title: string, status: ReplayStep['status'], detail: string): ReplayStep => ({
  id,
  title,
  status,
  detail,
});

/**
 * Replays a settled trade's settlement from the stored, chain-verified ticks with the pure rules:
 *
 * 1. its receipt, with a proof assembled from the tick log as it is now, goes through the same
 *    verifier a trader runs (signature, checkpoints, chain segments, rules): a tick changed,
 *    deleted or inserted since the receipt was issued breaks the chain there;
 * 2. the exit look-up runs again on the stored ticks and must find the receipt's ticks;
 * 3. the outcome and P/L are decided again from the proven ticks (the receipt's, signed when it was
 *    issued) and compared with what the trade records;
 * 4. the ledger holds the trade's settlement entry.
 *
 * The verdict is "confirmed" when nothing failed, else "mismatch"; the steps are the evidence.
 */
export async function replaySettlement(
  db: Kysely<Database>,
  trade: TradeRow,
  keySet: KeySet,
  nowMs: number,
): Promise<DisputeReplay> {
  const steps: ReplayStep[] = [];
  const recorded = { outcome: trade.status as Outcome, pnlCents: trade.pnl_cents ?? 0 };
  const lookup = await loadReceipt(db, trade.id);
  let receipt: Receipt | undefined;
  let receiptSigned = false;
  if (lookup.status === 'issued') {
    receipt = lookup.document.receipt;
    const checked = await verifyReceipt(lookup.document, keySet, nodeCrypto);
    receiptSigned = checked.steps.some((s) => s.id === 'receipt-signature' && s.status === 'ok');
    for (const s of checked.steps)
      steps.push(step(`receipt.${s.id}`, `Receipt: ${s.title}`, s.status, s.detail));
  } else {
    steps.push(
      step(
        'receipt',
        'Receipt',
        'warn',
        'No receipt yet: it is issued once a signed checkpoint covers the exit (within a minute); the replay uses the stored ticks alone',
      ),
    );
  }

  const [now] = await receiptTicks(db, [
    {
      pair: trade.pair,
      entryAtMs: trade.entry_at_ms,
      entryPrice: trade.entry_price,
      expiryAtMs: trade.expiry_at_ms,
    },
  ]);
  if (receipt && now) {
    const same = (a: { seq: number; hash: string } | null, b: { seq: number; hash: string } | null) =>
      (a === null && b === null) || (a !== null && b !== null && a.seq === b.seq && a.hash === b.hash);
    const agrees = same(now.exit, receipt.exitTick) && same(now.after, receipt.afterExpiryTick);
    steps.push(
      step(
        'stored-exit',
        'Stored ticks give the same exit',
        agrees ? 'ok' : 'fail',
        agrees
          ? `The last stored tick at or before ${trade.expiry_at_ms} is still seq ${receipt.exitTick?.seq ?? 'none'}`
          : `The stored ticks now give exit seq ${now.exit?.seq ?? 'none'} (hash ${now.exit?.hash.slice(0, 12) ?? '-'}), the receipt seq ${receipt.exitTick?.seq ?? 'none'} (hash ${receipt.exitTick?.hash.slice(0, 12) ?? '-'})`,
      ),
    );
  }

  // The ticks the replay decides on: the receipt's when its signature holds (the chain proved them
  // when it was issued; a tick changed since then breaks the chain, as a step above says), else
  // the ones stored now.
  const exit = receipt && (receiptSigned || now === undefined) ? receipt.exitTick : (now?.exit ?? null);
  const entryPrice = (receiptSigned ? receipt?.entryTick?.price : undefined) ?? now?.entry?.price ?? null;
  if (entryPrice === null) {
    steps.push(
      step(
        'replayed-result',
        'Result decided again',
        'warn',
        'The entry tick is not in the chain; the recorded entry price is used',
      ),
    );
  }
  const decided = settlementRule(
    trade.direction,
    entryPrice === null ? trade.entry_price : Number(entryPrice),
    trade.expiry_at_ms,
    exit ? { price: Number(exit.price), atMs: exit.atMs } : undefined,
  );
  const pnl = pnlCents(trade.amount_cents, payoutBasisPoints(trade.payout_pct), decided.outcome);
  const replayed: DisputeReplay['replayed'] = { outcome: decided.outcome, pnlCents: pnl };
  const resultAgrees = decided.outcome === recorded.outcome && pnl === recorded.pnlCents;
  steps.push(
    step(
      'recorded-result',
      'Recorded result matches the replay',
      resultAgrees ? 'ok' : 'fail',
      resultAgrees
        ? `${decided.outcome} (${decided.rule}), P/L ${pnl} cents, as recorded`
        : `The replay gives ${decided.outcome} (${decided.rule}) with P/L ${pnl} cents; the trade records ${recorded.outcome} with ${recorded.pnlCents} cents`,
    ),
  );

  const entries = await entryIdsByKey(db, [settlementKey(trade.id)]);
  const entryId = entries.get(settlementKey(trade.id));
  steps.push(
    entryId === undefined
      ? step('ledger', 'Ledger entry', 'fail', `No ledger entry ${settlementKey(trade.id)}`)
      : step('ledger', 'Ledger entry', 'ok', `Entry ${entryId} (${settlementKey(trade.id)})`),
  );

  const verdict = replayVerdict(steps);
  const failed = steps.find((s) => s.status === 'fail');
  return {
    verdict,
    summary:
      verdict === 'confirmed'
        ? `Settlement confirmed: ${recorded.outcome}, P/L ${recorded.pnlCents} cents, replayed from the verified tick chain`
        : `Mismatch found: ${failed?.detail ?? 'a check failed'}`,
    steps,
    recorded,
    replayed,
    replayedAtMs: nowMs,
  };
}
