import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import {
  canonicalTransfer,
  resolveTransfer,
  USER_ACCOUNT_TYPES,
  userAccountCode,
  type TransferCommand,
  type UserAccountType,
} from './ledger.domain';
import { IdempotencyConflict, InsufficientFunds, InvalidTransfer, UnknownAccount } from './ledger.errors';

export interface PostedLine {
  readonly accountCode: string;
  readonly amount: number;
  readonly balanceAfter: number;
}

export interface TransferResult {
  readonly entryId: number;
  /** True when the idempotency key had already been used: nothing moved this time. */
  readonly replayed: boolean;
  readonly postings: readonly PostedLine[];
}

const PG_CHECK_VIOLATION = '23514';

/**
 * Moves money: one journal entry whose postings sum to zero, written inside the caller's transaction
 * together with the business rows it belongs to. Two statements: the entry (or the discovery that
 * its idempotency key exists), then one statement that locks the accounts in id order, updates
 * their balances and inserts the postings with `balance_after`.
 */
export async function transfer(
  trx: Transaction<Database>,
  command: TransferCommand & { readonly occurredAt?: Date },
): Promise<TransferResult> {
  const resolved = resolveTransfer(command);
  if (!resolved.ok) throw new InvalidTransfer(resolved.problem, resolved.message);
  const requestHash = createHash('sha256')
    .update(canonicalTransfer(command.kind, resolved.postings))
    .digest('hex');

  const inserted = await trx
    .insertInto('ledger_entries')
    .values({
      kind: command.kind,
      idempotency_key: command.idempotencyKey,
      request_hash: requestHash,
      ref: command.ref === undefined ? null : JSON.stringify(command.ref),
      ...(command.occurredAt ? { created_at: command.occurredAt } : {}),
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return replay(trx, command.idempotencyKey, requestHash);

  const codes = resolved.postings.map((p) => p.code);
  const amounts = resolved.postings.map((p) => p.amount);
  try {
    const { rows } = await sql<{ code: string; amount: number; balance_after: number }>`
      with input (code, amount) as (
        select * from unnest(${codes}::text[], ${amounts}::bigint[])
      ),
      locked as materialized (
        select id from ledger_accounts where code = any(${codes}::text[]) order by id for update
      ),
      updated as (
        update ledger_accounts a set balance = a.balance + i.amount
        from input i
        where a.code = i.code and a.id in (select id from locked)
        returning a.id, a.code, a.balance, i.amount
      ),
      posted as (
        insert into ledger_postings (entry_id, account_id, amount, balance_after, created_at)
        select ${inserted.id}, id, amount, balance, coalesce(${command.occurredAt ?? null}::timestamptz, now())
        from updated
        returning account_id, balance_after
      )
      select u.code, u.amount, p.balance_after
      from posted p join updated u on u.id = p.account_id
      order by u.code`.execute(trx);
    return {
      entryId: inserted.id,
      replayed: false,
      postings: rows.map((r) => ({ accountCode: r.code, amount: r.amount, balanceAfter: r.balance_after })),
    };
  } catch (error) {
    throw translateError(error, codes);
  }
}

async function replay(
  trx: Transaction<Database>,
  idempotencyKey: string,
  requestHash: string,
): Promise<TransferResult> {
  const entry = await trx
    .selectFrom('ledger_entries')
    .select(['id', 'request_hash'])
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirstOrThrow();
  if (entry.request_hash !== requestHash) throw new IdempotencyConflict(idempotencyKey);
  const lines = await trx
    .selectFrom('ledger_postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .select(['a.code', 'p.amount', 'p.balance_after'])
    .where('p.entry_id', '=', entry.id)
    .orderBy('a.code')
    .execute();
  return {
    entryId: entry.id,
    replayed: true,
    postings: lines.map((l) => ({ accountCode: l.code, amount: l.amount, balanceAfter: l.balance_after })),
  };
}

function translateError(error: unknown, codes: string[]): unknown {
  const pgError = error as { code?: string; constraint?: string; detail?: string; message?: string };
  if (pgError.code !== PG_CHECK_VIOLATION) return error;
  if (pgError.constraint === 'ledger_accounts_non_negative') {
    // "Failing row contains (id, code, ...)": name the account for logs; users see one message.
    const match = /Failing row contains \(\d+, ([^,]+),/.exec(pgError.detail ?? '');
    return new InsufficientFunds(match?.[1]);
  }
  if (/does not balance/.test(pgError.message ?? '')) {
    // The entry was checked to balance before it was written, so a short statement means one of
    // its accounts was never opened. The transaction is aborted, so name them all.
    return new UnknownAccount(codes);
  }
  return error;
}

/** Opens every account a user needs, at zero. Idempotent. */
export async function openUserAccounts(
  trx: Kysely<Database> | Transaction<Database>,
  ownerId: string,
): Promise<void> {
  await trx
    .insertInto('ledger_accounts')
    .values(
      USER_ACCOUNT_TYPES.map((type) => ({ code: userAccountCode(ownerId, type), owner_id: ownerId, type })),
    )
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
}

export type UserBalances = Record<UserAccountType, number>;

export async function getUserBalances(db: Kysely<Database>, ownerId: string): Promise<UserBalances> {
  const rows = await db
    .selectFrom('ledger_accounts')
    .select(['type', 'balance'])
    .where('owner_id', '=', ownerId)
    .execute();
  const balances = Object.fromEntries(USER_ACCOUNT_TYPES.map((type) => [type, 0])) as UserBalances;
  for (const row of rows) balances[row.type as UserAccountType] = row.balance;
  return balances;
}

export interface LedgerTransaction {
  /** The posting's id: unique per row of a user's history. */
  readonly id: number;
  readonly entryId: number;
  /** The entry kind: `deposit`, `trade_stake`, `trade_payout`, ... */
  readonly type: string;
  readonly accountType: UserAccountType;
  /** Signed cents: positive is a credit to the account. */
  readonly amount: number;
  readonly balanceAfter: number;
  readonly createdAt: Date;
  readonly ref: unknown;
}

/** A user's postings, newest first, on the accounts asked for (by default the ones a user holds money in). */
export async function listUserTransactions(
  db: Kysely<Database>,
  ownerId: string,
  options: { limit: number; accountTypes?: readonly UserAccountType[] },
): Promise<LedgerTransaction[]> {
  const types = options.accountTypes ?? ['real', 'bonus', 'demo'];
  const rows = await db
    .selectFrom('ledger_postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .innerJoin('ledger_entries as e', 'e.id', 'p.entry_id')
    .select([
      'p.id',
      'p.entry_id',
      'e.kind',
      'a.type',
      'p.amount',
      'p.balance_after',
      'p.created_at',
      'e.ref',
    ])
    .where('a.owner_id', '=', ownerId)
    .where('a.type', 'in', [...types])
    .orderBy('p.id', 'desc')
    .limit(Math.max(1, Math.min(options.limit, 1000)))
    .execute();
  return rows.map((r) => ({
    id: r.id,
    entryId: r.entry_id,
    type: r.kind,
    accountType: r.type as UserAccountType,
    amount: r.amount,
    balanceAfter: r.balance_after,
    createdAt: r.created_at,
    ref: r.ref,
  }));
}
