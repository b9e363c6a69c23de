import { sql, type Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

/**
 * Money as the race scenarios account for it: the balance of every account type summed over its
 * accounts (all users' `real`, all shards of `house_real`, ...). The ledger sums to zero, so this
 * view shows where money went: a scenario asserts that each type moved by exactly what its
 * deposits, stakes, payouts and bonuses account for, and that nothing else moved.
 */
export type Money = Readonly<Record<string, number>>;

export async function moneyByType(db: Kysely<Database>): Promise<Money> {
  const { rows } = await sql<{ type: string; total: string }>`
    select type, sum(balance)::text as total from ledger_accounts group by type`.execute(db);
  // Summed as text and parsed here: the totals are integers far inside the safe range.
  return Object.fromEntries(rows.map((row) => [row.type, Number(row.total)]));
}

/** `after − before` per account type, leaving out the types that did not move. */
export function moneyMoved(before: Money, after: Money): Record<string, number> {
  const moved: Record<string, number> = {};
  for (const type of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const change = (after[type] ?? 0) - (before[type] ?? 0);
    if (change !== 0) moved[type] = change;
  }
  return moved;
}

/** The expected movements in the shape `moneyMoved` returns: zero changes left out. */
export function movements(expected: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(expected).filter(([, cents]) => cents !== 0));
}

export interface AccountPosting {
  readonly id: number;
  readonly kind: string;
  readonly idempotencyKey: string;
  readonly amount: number;
  readonly balanceAfter: number;
}

/** Every posting on one of a user's accounts, oldest first (posting ids follow commit order per account). */
export async function postingsOf(
  db: Kysely<Database>,
  userId: string,
  type: string,
): Promise<AccountPosting[]> {
  const rows = await db
    .selectFrom('ledger_postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .innerJoin('ledger_entries as e', 'e.id', 'p.entry_id')
    .select(['p.id', 'e.kind', 'e.idempotency_key', 'p.amount', 'p.balance_after'])
    .where('a.owner_id', '=', userId)
    .where('a.type', '=', type)
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    idempotencyKey: r.idempotency_key,
    amount: Number(r.amount),
    balanceAfter: Number(r.balance_after),
  }));
}

/** Ledger entries whose idempotency key starts with `prefix`, oldest first. */
export async function entriesByKeyPrefix(
  db: Kysely<Database>,
  prefix: string,
): Promise<{ id: number; kind: string; idempotencyKey: string }[]> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['id', 'kind', 'idempotency_key'])
    .where('idempotency_key', 'like', `${prefix.replace(/[%_\\]/g, '\\$&')}%`)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), kind: r.kind, idempotencyKey: r.idempotency_key }));
}
