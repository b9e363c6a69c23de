import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { SYSTEM_ACCOUNT_SHARDS, systemAccountCode } from '../ledger/ledger.domain';

type Db = Kysely<Database> | Transaction<Database>;

/** Read-only figures of the ledger for screens and metrics; nothing here locks or writes. */

export interface CashBalances {
  readonly real_cents: number;
  readonly demo_cents: number;
}

/**
 * The real and demo balances of each owner asked for, in one statement (no query per user).
 * Owners without accounts are absent.
 */
export async function cashBalancesOf(
  db: Db,
  ownerIds: readonly string[],
): Promise<Map<string, CashBalances>> {
  if (ownerIds.length === 0) return new Map();
  const { rows } = await sql<CashBalances & { owner_id: string }>`
    select owner_id,
           coalesce(sum(balance) filter (where type = 'real'), 0)::bigint as real_cents,
           coalesce(sum(balance) filter (where type = 'demo'), 0)::bigint as demo_cents
    from ledger_accounts where owner_id = any(${[...ownerIds]}::uuid[]) and type in ('real', 'demo')
    group by owner_id`.execute(db);
  return new Map(
    rows.map((row) => [row.owner_id, { real_cents: row.real_cents, demo_cents: row.demo_cents }]),
  );
}

const HOUSE_ACCOUNTS = ['house_real', 'house_demo'] as const;
const HOUSE_ACCOUNT_CODES = HOUSE_ACCOUNTS.flatMap((type) =>
  Array.from({ length: SYSTEM_ACCOUNT_SHARDS }, (_, shard) => systemAccountCode(type, shard)),
);

/**
 * The house's result per book (`real`, `demo`) since the ledger began: positive is profit. Only
 * trade settlement posts to the house accounts (the losing cash stake in, the cash profit of a win
 * out), so their balances summed over the shards are the house's P/L exactly. The bonus share of a
 * trade goes to and from the bonus pool instead and is not the house's money. Reads 32 rows by
 * their unique code.
 */
export async function houseResult(db: Db): Promise<{ account: string; cents: number }[]> {
  const { rows } = await sql<{ account: string; cents: number }>`
    select replace(type, 'house_', '') as account, sum(balance)::bigint as cents
    from ledger_accounts
    where code = any(${HOUSE_ACCOUNT_CODES}::text[])
    group by type
    order by type`.execute(db);
  return rows;
}
