import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { executePrepared, type Database } from '@updown/runtime';
import {
  canonicalTransfer,
  resolveTransfer,
  USER_ACCOUNT_TYPES,
  userAccountCode,
  type ResolvedPosting,
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

  // Both statements are prepared (parsed and planned once per connection): a transfer is on the
  // path of every placement, and planning the posting statement cost more than running it.
  const {
    rows: [inserted],
  } = await executePrepared(
    trx,
    trx
      .insertInto('ledger_entries')
      .values({
        kind: command.kind,
        idempotency_key: command.idempotencyKey,
        request_hash: requestHash,
        ref: command.ref === undefined ? null : JSON.stringify(command.ref),
        ...(command.occurredAt ? { created_at: command.occurredAt } : {}),
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id'),
  );
  if (!inserted) return replay(trx, command.idempotencyKey, requestHash);

  const codes = resolved.postings.map((p) => p.code);
  const amounts = resolved.postings.map((p) => p.amount);
  try {
    const posting = sql<{ code: string; amount: number; balance_after: number }>`
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
      order by u.code`;
    const { rows } = await executePrepared(trx, posting.compile(trx));
    return {
      entryId: inserted.id,
      replayed: false,
      postings: rows.map((r) => ({ accountCode: r.code, amount: r.amount, balanceAfter: r.balance_after })),
    };
  } catch (error) {
    throw translateError(error, codes);
  }
}

/** Most entries one `transferBatch` call writes: bounds the statements' size and the rows they lock. */
export const TRANSFER_BATCH_MAX = 10_000;

export interface BatchTransferResult {
  /** The entry of each command, by idempotency key (for a replayed key, the entry written first). */
  readonly entryIds: ReadonlyMap<string, number>;
  /** Keys that had been used before: those commands moved nothing this time. */
  readonly replayedKeys: readonly string[];
  /** Postings written by this call. */
  readonly postings: number;
}

/** A transfer as `transferBatch` takes it: with the time it happened, when not now. */
export type BatchCommand = TransferCommand & { readonly occurredAt?: Date };

/**
 * Many transfers in a constant number of statements, for set-based work such as settling a batch
 * of trades: one insert for all entries (`on conflict do nothing`, so keys used before are replays
 * that move nothing), one look-up of the replayed keys' request hashes when there are any, and one
 * statement that locks every account touched in id order, applies each account's net change and
 * inserts all postings with their running `balance_after`.
 *
 * Same guarantees as `transfer`: each entry balances (checked here and by the database's trigger,
 * which sees all postings of the call in one statement), no user account goes below zero
 * (`InsufficientFunds`: nothing of the batch is written), a reused key with a different request
 * is an `IdempotencyConflict`. A thrown error leaves the caller's transaction unusable: roll back.
 */
export async function transferBatch(
  trx: Transaction<Database>,
  commands: readonly BatchCommand[],
): Promise<BatchTransferResult> {
  if (commands.length === 0) return { entryIds: new Map(), replayedKeys: [], postings: 0 };
  if (commands.length > TRANSFER_BATCH_MAX) {
    throw new RangeError(
      `transferBatch takes at most ${TRANSFER_BATCH_MAX} transfers, got ${commands.length}`,
    );
  }
  const resolved = resolveBatch(commands);
  const inserted = await sql<{ id: number; idempotency_key: string }>`
    insert into ledger_entries (kind, idempotency_key, request_hash, ref, created_at)
    select i.kind, i.key, i.hash, i.ref::jsonb, coalesce(i.at::timestamptz, now())
    from unnest(
      ${resolved.map((r) => r.command.kind)}::text[],
      ${resolved.map((r) => r.command.idempotencyKey)}::text[],
      ${resolved.map((r) => r.requestHash)}::text[],
      ${resolved.map((r) => (r.command.ref === undefined ? null : JSON.stringify(r.command.ref)))}::text[],
      ${resolved.map((r) => r.command.occurredAt?.toISOString() ?? null)}::text[]
    ) with ordinality as i (kind, key, hash, ref, at, ord)
    order by i.ord
    on conflict (idempotency_key) do nothing
    returning id, idempotency_key`.execute(trx);
  const entryIds = new Map(inserted.rows.map((r) => [r.idempotency_key, r.id]));
  const replays = resolved.filter((r) => !entryIds.has(r.command.idempotencyKey));
  if (replays.length > 0) await checkReplays(trx, replays, entryIds);
  const fresh = resolved.filter((r) => !replays.includes(r));
  const postings = fresh.length === 0 ? 0 : await postBatch(trx, fresh, entryIds);
  return { entryIds, replayedKeys: replays.map((r) => r.command.idempotencyKey), postings };
}

interface ResolvedCommand {
  readonly command: BatchCommand;
  readonly postings: readonly ResolvedPosting[];
  readonly requestHash: string;
}

function resolveBatch(commands: readonly BatchCommand[]): ResolvedCommand[] {
  const keys = new Set<string>();
  return commands.map((command) => {
    const resolved = resolveTransfer(command);
    if (!resolved.ok) throw new InvalidTransfer(resolved.problem, resolved.message);
    // Two commands with one key in one call would make one of them a silent replay of the other.
    if (keys.has(command.idempotencyKey)) {
      throw new InvalidTransfer(
        'idempotency_key',
        `idempotency key ${command.idempotencyKey} appears twice in one batch`,
      );
    }
    keys.add(command.idempotencyKey);
    const requestHash = createHash('sha256')
      .update(canonicalTransfer(command.kind, resolved.postings))
      .digest('hex');
    return { command, postings: resolved.postings, requestHash };
  });
}

async function checkReplays(
  trx: Transaction<Database>,
  replays: readonly ResolvedCommand[],
  entryIds: Map<string, number>,
): Promise<void> {
  const rows = await trx
    .selectFrom('ledger_entries')
    .select(['id', 'idempotency_key', 'request_hash'])
    .where(
      'idempotency_key',
      'in',
      replays.map((r) => r.command.idempotencyKey),
    )
    .execute();
  const existing = new Map(rows.map((r) => [r.idempotency_key, r]));
  for (const replay of replays) {
    const entry = existing.get(replay.command.idempotencyKey);
    if (!entry || entry.request_hash !== replay.requestHash) {
      throw new IdempotencyConflict(replay.command.idempotencyKey);
    }
    entryIds.set(replay.command.idempotencyKey, entry.id);
  }
}

/**
 * One statement for every posting of the batch. Lines are numbered credits first: an account's
 * running balance then only rises before it falls, so no `balance_after` of a user account dips
 * below zero inside the batch when its final balance (which the check constraint guards) does not.
 * Postings are inserted in that order, so their ids follow the running sums `verifyLedger` checks.
 */
async function postBatch(
  trx: Transaction<Database>,
  fresh: readonly ResolvedCommand[],
  entryIds: ReadonlyMap<string, number>,
): Promise<number> {
  const lines = fresh.flatMap((r) =>
    r.postings.map((p) => ({
      entryId: entryIds.get(r.command.idempotencyKey)!,
      code: p.code,
      amount: p.amount,
      at: r.command.occurredAt?.toISOString() ?? null,
    })),
  );
  const ordered = [...lines.filter((l) => l.amount > 0), ...lines.filter((l) => l.amount < 0)];
  try {
    const { rows } = await sql<{ n: number }>`
      with input as (
        select * from unnest(
          ${ordered.map((l) => l.entryId)}::bigint[],
          ${ordered.map((l) => l.code)}::text[],
          ${ordered.map((l) => l.amount)}::bigint[],
          ${ordered.map((l) => l.at)}::text[]
        ) with ordinality as i (entry_id, code, amount, at, ord)
      ),
      deltas as (select code, sum(amount) as delta from input group by code),
      locked as materialized (
        select id, code from ledger_accounts where code in (select code from deltas) order by id for update
      ),
      updated as (
        update ledger_accounts a set balance = a.balance + d.delta
        from deltas d join locked l on l.code = d.code
        where a.id = l.id
        returning a.id, a.code, a.balance - d.delta as balance_before
      ),
      lines as (
        select i.ord, i.entry_id, u.id as account_id, i.amount, i.at,
               u.balance_before + sum(i.amount) over (partition by u.id order by i.ord) as balance_after
        from input i join updated u on u.code = i.code
      ),
      posted as (
        insert into ledger_postings (entry_id, account_id, amount, balance_after, created_at)
        select entry_id, account_id, amount, balance_after, coalesce(at::timestamptz, now())
        from lines order by ord
        returning id
      )
      select count(*)::int as n from posted`.execute(trx);
    return rows[0]?.n ?? 0;
  } catch (error) {
    throw translateError(error, [...new Set(ordered.map((l) => l.code))].slice(0, UNKNOWN_CODES_LISTED_MAX));
  }
}

/** An unbalanced batch names at most this many of its accounts: enough to find the unopened one. */
const UNKNOWN_CODES_LISTED_MAX = 20;

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
