import { sql, type Kysely } from 'kysely';
import type { Database, KeySet } from '@updown/runtime';
import { verifySignature } from '@updown/verify';
import { nodeCrypto } from '@updown/verify/node';
import { pnlCents, settlementRule } from '@updown/verify/rules';
import { settlementKey } from '../settlement.domain';
import type { Receipt } from './receipt.domain';

export interface ReceiptViolation {
  readonly check:
    | 'receipt_signature_invalid'
    | 'receipt_body_invalid'
    | 'receipt_trade_mismatch'
    | 'receipt_rule_mismatch'
    | 'receipt_ledger_mismatch'
    | 'receipt_tick_mismatch'
    | 'receipt_missing';
  readonly detail: string;
}

export interface ReceiptsReport {
  readonly receipts: number;
  readonly violations: readonly ReceiptViolation[];
  readonly truncated: number;
}

const PAGE = 2_000;
const LISTED_MAX = 50;
/** A settled trade older than this with no receipt (and the chain running) is reported. */
export const RECEIPT_OVERDUE_MS = 60 * 60 * 1000;

interface Row {
  readonly trade_id: string;
  readonly body: string;
  readonly key_id: string;
  readonly signature: Buffer;
  readonly status: string;
  readonly pnl_cents: number | null;
  readonly amount_cents: number;
  readonly user_id: string;
  readonly pair: string;
  readonly expiry_at_ms: number;
  readonly entry_id: number | null;
  readonly entry_kind: string | null;
  /** What the settlement entry put back on the trader's own (not in-play) accounts. */
  readonly returned_cents: number | null;
  readonly stored_hashes: Record<string, string | null>;
}

/**
 * A read model (read-only, across owners: settlement's receipts, order's trades, the wallet's
 * ledger and price-ingest's ticks, in one snapshot) that proves every receipt against the key set
 * and the books: its signature over its stored body;
 * the trade it names (owner, pair, stake, expiry, outcome and P/L as the trade records them); its
 * rule and P/L recomputed with the pure rules from the ticks it names; the ledger entry it names
 * (the settlement's key, the entry's kind for the outcome, and what the entry put back on the
 * trader's accounts: stake plus P/L, or nothing on a loss); and its ticks against the stored chain
 * (where retention still keeps them). Then settled trades long past their receipt's due time.
 */
export async function verifyReceipts(
  db: Kysely<Database>,
  keySet: KeySet,
  nowMs: number,
): Promise<ReceiptsReport> {
  const violations: ReceiptViolation[] = [];
  let truncated = 0;
  const report = (violation: ReceiptViolation) => {
    if (violations.length < LISTED_MAX) violations.push(violation);
    else truncated++;
  };
  let receipts = 0;
  for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
    const { rows } = await sql<Row>`
      select r.trade_id, r.body, r.key_id, r.signature, t.status, t.pnl_cents, t.amount_cents, t.user_id, t.pair,
             t.expiry_at_ms, e.id as entry_id, e.kind as entry_kind,
             (select coalesce(sum(p.amount), 0)::bigint from ledger_postings p join ledger_accounts a on a.id = p.account_id
               where p.entry_id = e.id and a.code in ('user:' || t.user_id || ':real', 'user:' || t.user_id || ':bonus',
                                                     'user:' || t.user_id || ':demo')) as returned_cents,
             (select jsonb_object_agg(m.seq::text, encode(m.hash, 'hex')) from market_ticks m
               where m.pair = r.pair and m.seq in (
                 ((r.body::jsonb) -> 'entryTick' ->> 'seq')::bigint, ((r.body::jsonb) -> 'exitTick' ->> 'seq')::bigint,
                 ((r.body::jsonb) -> 'afterExpiryTick' ->> 'seq')::bigint)) as stored_hashes
      from trade_receipts r
      left join trades t on t.id = r.trade_id
      left join ledger_entries e on e.idempotency_key = 'trade:' || r.trade_id || ':settle'
      where r.trade_id > ${after}::uuid
      order by r.trade_id
      limit ${PAGE}`.execute(db);
    for (const row of rows) {
      receipts++;
      await checkReceipt(row, keySet, report);
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.trade_id;
  }
  const { rows: missing } = await sql<{ id: string; settled_at_ms: number }>`
    select t.id, t.settled_at_ms from trades t
    where t.settled_at_ms is not null and t.settled_at_ms < ${nowMs - RECEIPT_OVERDUE_MS}
      and t.settled_at_ms >= (select min(r.issued_at_ms) from trade_receipts r)
      and not exists (select 1 from trade_receipts r where r.trade_id = t.id)
    order by t.settled_at_ms limit ${LISTED_MAX}`.execute(db);
  for (const row of missing) {
    report({
      check: 'receipt_missing',
      detail: `trade ${row.id} settled at ${row.settled_at_ms} has no receipt`,
    });
  }
  return { receipts, violations, truncated };
}

async function checkReceipt(row: Row, keySet: KeySet, report: (v: ReceiptViolation) => void): Promise<void> {
  const where = `receipt of trade ${row.trade_id}`;
  const signature = { alg: 'Ed25519' as const, kid: row.key_id, sig: row.signature.toString('base64url') };
  const signed = await verifySignature(nodeCrypto, keySet, row.body, signature);
  if (signed.problems.length > 0) {
    report({ check: 'receipt_signature_invalid', detail: `${where}: ${signed.problems.join('; ')}` });
  }
  let receipt: Receipt;
  try {
    receipt = JSON.parse(row.body) as Receipt;
  } catch {
    report({ check: 'receipt_body_invalid', detail: `${where}: the stored body is not JSON` });
    return;
  }
  const differs: string[] = [];
  if (receipt.tradeId !== row.trade_id) differs.push(`tradeId ${receipt.tradeId}`);
  if (receipt.userId !== row.user_id) differs.push(`userId ${receipt.userId} vs ${row.user_id}`);
  if (receipt.pair !== row.pair) differs.push(`pair ${receipt.pair} vs ${row.pair}`);
  if (receipt.stakeCents !== row.amount_cents)
    differs.push(`stakeCents ${receipt.stakeCents} vs ${row.amount_cents}`);
  if (receipt.expiryAtMs !== row.expiry_at_ms)
    differs.push(`expiryAtMs ${receipt.expiryAtMs} vs ${row.expiry_at_ms}`);
  if (receipt.outcome !== row.status) differs.push(`outcome ${receipt.outcome} vs ${row.status}`);
  if (receipt.pnlCents !== row.pnl_cents) differs.push(`pnlCents ${receipt.pnlCents} vs ${row.pnl_cents}`);
  if (differs.length > 0) {
    report({
      check: 'receipt_trade_mismatch',
      detail: `${where} differs from the trade: ${differs.join(', ')}`,
    });
  }
  const exit = receipt.exitTick
    ? { price: Number(receipt.exitTick.price), atMs: receipt.exitTick.atMs }
    : undefined;
  const rule = settlementRule(receipt.direction, Number(receipt.entryPrice), receipt.expiryAtMs, exit);
  const pnl = pnlCents(receipt.stakeCents, receipt.payoutBasisPoints, rule.outcome);
  if (rule.outcome !== receipt.outcome || rule.rule !== receipt.rule || pnl !== receipt.pnlCents) {
    report({
      check: 'receipt_rule_mismatch',
      detail: `${where}: the rules give ${rule.outcome} (${rule.rule}) with P/L ${pnl}; it says ${receipt.outcome} (${receipt.rule}) with ${receipt.pnlCents}`,
    });
  }
  const expectedKind =
    receipt.outcome === 'won' ? 'trade_payout' : receipt.outcome === 'lost' ? 'trade_loss' : 'trade_refund';
  const expectedReturn = receipt.outcome === 'lost' ? 0 : receipt.stakeCents + receipt.pnlCents;
  if (row.entry_id === null) {
    report({
      check: 'receipt_ledger_mismatch',
      detail: `${where}: no ledger entry ${settlementKey(row.trade_id)}`,
    });
  } else {
    const problems: string[] = [];
    if (!receipt.ledgerEntryIds.includes(String(row.entry_id))) {
      problems.push(
        `it names entries [${receipt.ledgerEntryIds.join(', ')}], the settlement entry is ${row.entry_id}`,
      );
    }
    if (row.entry_kind !== expectedKind)
      problems.push(`entry ${row.entry_id} is ${row.entry_kind}, a ${receipt.outcome} needs ${expectedKind}`);
    if (Number(row.returned_cents) !== expectedReturn) {
      problems.push(
        `entry ${row.entry_id} returned ${row.returned_cents} cents to the trader, the receipt's result needs ${expectedReturn}`,
      );
    }
    if (problems.length > 0)
      report({ check: 'receipt_ledger_mismatch', detail: `${where}: ${problems.join('; ')}` });
  }
  const stored = row.stored_hashes ?? {};
  for (const [name, tick] of [
    ['entry', receipt.entryTick],
    ['exit', receipt.exitTick],
    ['after-expiry', receipt.afterExpiryTick],
  ] as const) {
    if (!tick) continue;
    const hash = stored[String(tick.seq)];
    if (hash !== undefined && hash !== null && hash !== tick.hash) {
      report({
        check: 'receipt_tick_mismatch',
        detail: `${where}: its ${name} tick ${tick.seq} differs from the stored tick`,
      });
    }
  }
}
