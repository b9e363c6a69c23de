import { sql, type Kysely } from 'kysely';
import { verifyTickChains } from '@updown/price-ingest';
import type { Database, KeySet } from '@updown/runtime';
import { verifyReceipts } from '@updown/settlement';
import { verifyLedger } from '@updown/wallet';
import {
  compareBalances,
  modelBalances,
  tradeStatus,
  type AckedOp,
  type ExitEvidence,
  type UserBalances,
} from './model';

/**
 * The end-of-run assertions, read straight from the database once every trade has settled. Each
 * failed check adds one line saying what was expected and what was found; the money comparison
 * also yields the lost and duplicated cents of the summary line.
 */

export interface CheckResult {
  readonly failures: string[];
  readonly lostCents: number;
  readonly duplicatedCents: number;
  readonly trades: number;
  /** Receipts issued during the run, every one proven against its trade, the rules and the ledger. */
  readonly receipts: number;
}

/** At most this many examples per failed check, so a systematic fault does not flood the report. */
const EXAMPLES_MAX = 10;

export async function runChecks(
  db: Kysely<Database>,
  history: readonly AckedOp[],
  userIds: readonly string[],
  keySet: KeySet,
): Promise<CheckResult> {
  const failures: string[] = [];
  const placed = new Map<string, PlacedOp>();
  for (const op of history) if (op.kind === 'place') placed.set(op.tradeId, op);
  const trades = await loadTrades(db, userIds);

  failures.push(...tradeProblems(placed, trades));
  failures.push(...(await settlementProblems(db, trades)));
  const exits = new Map(trades.map((t) => [t.id, exitEvidence(t)] as const));
  failures.push(...exitProblems(placed, trades, exits));
  failures.push(...(await paymentProblems(db, history, userIds)));

  const { rows: bonuses } = await sql<{ user_id: string; status: string }>`
    select user_id, status from bonuses where user_id = any(${[...userIds]}::uuid[])`.execute(db);
  failures.push(
    ...problemLine(
      'bonuses whose wagering completed (the workload must keep turnover below 35x)',
      bonuses.filter((b) => b.status === 'completed').map((b) => b.user_id),
    ),
  );
  const report = await verifyLedger(db);
  if (!report.ok) {
    failures.push(
      ...problemLine(
        'ledger verification',
        report.violations.map((v) => JSON.stringify(v)),
      ),
    );
  }

  // The evidence survives the crashes too: every chain and checkpoint holds, and every receipt
  // issued (trades settled on a dead feed may still wait for theirs) matches its trade and ledger.
  const chains = await verifyTickChains(db, keySet);
  failures.push(
    ...problemLine(
      'tick chain verification',
      chains.violations.map((v) => `${v.check}: ${v.detail}`),
    ),
  );
  const receipts = await verifyReceipts(db, keySet, Date.now());
  failures.push(
    ...problemLine(
      'receipt verification',
      receipts.violations.map((v) => `${v.check}: ${v.detail}`),
    ),
  );
  if (receipts.receipts === 0) failures.push('no receipt was issued during the run');

  // Trades the database lacks are reported above; the money model covers the ones it has.
  const known = history.filter((op) => op.kind !== 'place' || exits.has(op.tradeId));
  const money = compareBalances(modelBalances(known, exits), await loadBalances(db, userIds));
  failures.push(...problemLine('balances differing from the model', money.differences));
  return {
    failures,
    lostCents: money.lostCents,
    duplicatedCents: money.duplicatedCents,
    trades: trades.length,
    receipts: receipts.receipts,
  };
}

type PlacedOp = Extract<AckedOp, { kind: 'place' }>;

interface StoredTrade {
  id: string;
  user_id: string;
  pair: string;
  direction: string;
  account_type: string;
  amount_cents: number;
  stake_bonus_cents: number;
  entry_price: number;
  payout_pct: number;
  expiry_at_ms: number;
  status: string;
  exit_price: number | null;
  /** The stored tick with the greatest at_ms at or before the expiry, if any. */
  tick_price: number | null;
  tick_at_ms: number | null;
}

function problemLine(check: string, problems: readonly string[]): string[] {
  if (problems.length === 0) return [];
  return [`${check} (${problems.length}): ${problems.slice(0, EXAMPLES_MAX).join('; ')}`];
}

async function loadTrades(db: Kysely<Database>, userIds: readonly string[]): Promise<StoredTrade[]> {
  const { rows } = await sql<StoredTrade>`
    select t.id, t.user_id, t.pair, t.direction, t.account_type, t.amount_cents, t.stake_bonus_cents,
           t.entry_price, t.payout_pct, t.expiry_at_ms, t.status, t.exit_price,
           x.price as tick_price, x.at_ms as tick_at_ms
    from trades t
    left join lateral (
      select price, at_ms from market_ticks m
      where m.pair = t.pair and m.at_ms <= t.expiry_at_ms
      order by m.at_ms desc, m.id desc limit 1
    ) x on true
    where t.user_id = any(${[...userIds]}::uuid[])`.execute(db);
  return rows;
}

/** Every acknowledged placement is stored as acknowledged, and nothing else was placed. */
function tradeProblems(placed: ReadonlyMap<string, PlacedOp>, trades: readonly StoredTrade[]): string[] {
  const stored = new Map(trades.map((t) => [t.id, t]));
  const differing: string[] = [];
  for (const op of placed.values()) {
    const t = stored.get(op.tradeId);
    if (!t) continue;
    const same =
      t.user_id === op.userId &&
      t.pair === op.pair &&
      t.direction === op.direction &&
      t.account_type === op.account &&
      t.amount_cents === op.amountCents &&
      t.entry_price === op.entryPrice &&
      t.payout_pct === op.payoutPct;
    if (!same) differing.push(`${op.tradeId}: acked ${JSON.stringify(op)}, stored ${JSON.stringify(t)}`);
  }
  return [
    ...problemLine(
      'acknowledged placements missing from the trades table',
      [...placed.keys()].filter((id) => !stored.has(id)),
    ),
    ...problemLine(
      'trades the API never acknowledged',
      trades.filter((t) => !placed.has(t.id)).map((t) => `${t.id} (${t.account_type} ${t.amount_cents})`),
    ),
    ...problemLine('trades stored differently from their acknowledgement', differing),
    ...problemLine(
      'real stakes taken from a bonus (the workload keeps cash enough for every stake)',
      trades.filter((t) => t.stake_bonus_cents !== 0).map((t) => t.id),
    ),
  ];
}

/** Exactly one settlement entry per trade in the ledger, whatever its kind, and no trade pending. */
async function settlementProblems(db: Kysely<Database>, trades: readonly StoredTrade[]): Promise<string[]> {
  const { rows } = await sql<{ trade_id: string; n: number }>`
    select ref->>'tradeId' as trade_id, count(*)::int as n from ledger_entries
    where kind in ('trade_payout', 'trade_loss', 'trade_refund')
    group by 1`.execute(db);
  const settled = new Map(rows.map((r) => [r.trade_id, r.n]));
  return problemLine(
    'trades not settled exactly once',
    trades
      .filter((t) => t.status === 'pending' || settled.get(t.id) !== 1)
      .map((t) => `${t.id}: status ${t.status}, ${settled.get(t.id) ?? 0} settlement entries`),
  );
}

function exitEvidence(t: StoredTrade): ExitEvidence {
  return {
    expiryAtMs: t.expiry_at_ms,
    tick: t.tick_price === null || t.tick_at_ms === null ? null : { price: t.tick_price, atMs: t.tick_at_ms },
  };
}

/** The outcome and exit price follow from the stored tick in force at expiry (DESIGN §3). */
function exitProblems(
  placed: ReadonlyMap<string, PlacedOp>,
  trades: readonly StoredTrade[],
  exits: ReadonlyMap<string, ExitEvidence>,
): string[] {
  const wrong: string[] = [];
  for (const t of trades) {
    const op = placed.get(t.id);
    const evidence = exits.get(t.id)!;
    if (!op) continue;
    const status = tradeStatus(op, evidence);
    const exitPrice = status === 'void' ? null : evidence.tick!.price;
    if (t.status !== status || t.exit_price !== exitPrice) {
      wrong.push(
        `${t.id}: model ${status} at ${exitPrice}, stored ${t.status} at ${t.exit_price} (entry ${op.entryPrice} ${op.direction})`,
      );
    }
  }
  return problemLine('trades settled at another outcome or exit price than the stored tick at expiry', wrong);
}

async function loadBalances(
  db: Kysely<Database>,
  userIds: readonly string[],
): Promise<Map<string, Partial<UserBalances>>> {
  const { rows } = await sql<{ owner_id: string; type: keyof UserBalances; balance: number }>`
    select owner_id, type, balance from ledger_accounts
    where owner_id = any(${[...userIds]}::uuid[])`.execute(db);
  const balances = new Map<string, Partial<UserBalances>>();
  for (const a of rows) {
    const held = balances.get(a.owner_id) ?? {};
    held[a.type] = (held[a.type] ?? 0) + a.balance;
    balances.set(a.owner_id, held);
  }
  return balances;
}

/** Every acknowledged deposit, withdrawal and decision is in the request tables, and nothing else is. */
async function paymentProblems(
  db: Kysely<Database>,
  history: readonly AckedOp[],
  userIds: readonly string[],
): Promise<string[]> {
  const expected = new Map<string, { table: string; amountCents: number; status: string }>();
  for (const op of history) {
    if (op.kind === 'deposit' && op.requestId) {
      expected.set(op.requestId, { table: 'deposit', amountCents: op.amountCents, status: 'approved' });
    } else if (op.kind === 'withdraw') {
      expected.set(op.requestId, { table: 'withdrawal', amountCents: op.amountCents, status: 'pending' });
    } else if (op.kind === 'decide') {
      expected.get(op.requestId)!.status = op.decision === 'approve' ? 'approved' : 'rejected';
    }
  }
  const { rows } = await sql<{ table: string; id: string; amount_cents: number; status: string }>`
    select 'deposit' as table, id, amount_cents, status from deposit_requests
    where user_id = any(${[...userIds]}::uuid[])
    union all
    select 'withdrawal', id, amount_cents, status from withdrawal_requests
    where user_id = any(${[...userIds]}::uuid[])`.execute(db);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    seen.add(row.id);
    const want = expected.get(row.id);
    if (!want)
      problems.push(`${row.table} ${row.id} (${row.amount_cents}, ${row.status}) was never acknowledged`);
    else if (
      want.table !== row.table ||
      want.amountCents !== row.amount_cents ||
      want.status !== row.status
    ) {
      problems.push(
        `${row.table} ${row.id}: expected ${want.amountCents} ${want.status}, stored ${row.amount_cents} ${row.status}`,
      );
    }
  }
  for (const [id, want] of expected) {
    if (!seen.has(id)) problems.push(`acknowledged ${want.table} ${id} (${want.amountCents}) is missing`);
  }
  return problems.length === 0
    ? []
    : [
        `deposits and withdrawals not as acknowledged (${problems.length}): ${problems.slice(0, EXAMPLES_MAX).join('; ')}`,
      ];
}
