import { hash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import {
  nullableTextArray,
  numberArray,
  preparedStatement,
  textArray,
  uncachedTextArray,
  unnamedStatement,
  type Database,
  type SqlTransaction,
} from '@updown/runtime';
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
import { enterPostingLock, heldLockLevel } from '../locks/lock-protocol';

export interface PostedLine {
  readonly accountCode: string;
  readonly amountCents: number;
  readonly balanceAfter: number;
}

export interface TransferResult {
  readonly entryId: number;
  /** True when the idempotency key had already been used: nothing moved this time. */
  readonly replayed: boolean;
  readonly postings: readonly PostedLine[];
}

const PG_CHECK_VIOLATION = '23514';
const PG_NOT_NULL_VIOLATION = '23502';

interface TransferRow {
  entry_id: number;
  code: string | null;
  amount: number;
  balance_after: number;
}

/**
 * `transfer`'s statement. The entry goes in first (the lock waits for the `exists` on it), so a
 * transfer that holds no account yet waits on a concurrent twin's key before it locks anything,
 * as it did when these were two statements; a replay locks nothing and moves nothing.
 */
const postTransfer = preparedStatement<
  TransferRow,
  [
    kind: string,
    idempotencyKey: string,
    requestHash: string,
    ref: string | null,
    occurredAt: Date | null,
    codes: string,
    amounts: string,
  ]
>(`
  with entry as (
    insert into ledger_entries (kind, idempotency_key, request_hash, ref, created_at)
    values ($1, $2, $3, $4::jsonb, coalesce($5::timestamptz, now()))
    on conflict (idempotency_key) do nothing
    returning id
  ),
  input (code, amount) as (
    select * from unnest($6::text[], $7::bigint[])
  ),
  locked as materialized (
    select id from ledger_accounts
    where code = any($6::text[]) and exists (select 1 from entry)
    order by id for update
  ),
  updated as (
    update ledger_accounts a set balance = a.balance + i.amount
    from input i
    where a.code = i.code and a.id in (select id from locked)
    returning a.id, a.code, a.balance, i.amount
  ),
  posted as (
    insert into ledger_postings (entry_id, account_id, amount, balance_after, created_at)
    select e.id, u.id, u.amount, u.balance, coalesce($5::timestamptz, now())
    from updated u cross join entry e
    returning entry_id, account_id, balance_after
  )
  select e.id as entry_id, u.code, u.amount, p.balance_after
  from entry e left join (posted p join updated u on u.id = p.account_id) on true
  order by u.code`);

/**
 * Moves money: one journal entry whose postings sum to zero, written inside the caller's transaction
 * together with the business rows it belongs to. One statement, prepared (parsed and planned once
 * per connection): it inserts the entry (or finds that its idempotency key exists), then locks the
 * accounts in id order, updates their balances and inserts the postings with `balance_after`. A key
 * used before makes it post nothing; a second statement then reads the first entry (`replayed`).
 */
export async function transfer(
  trx: SqlTransaction,
  command: TransferCommand & { readonly occurredAt?: Date },
): Promise<TransferResult> {
  const resolved = resolveTransfer(command);
  if (!resolved.ok) throw new InvalidTransfer(resolved.problem, resolved.message);
  const requestHash = hash('sha256', canonicalTransfer(command.kind, resolved.postings));
  const codes = resolved.postings.map((p) => p.code);
  const amounts = resolved.postings.map((p) => p.amountCents);
  // A command that took its accounts already may post only to those: checked before the statement.
  // Otherwise this statement is the command's level-4 step, taken once it is known to post.
  const holding = heldLockLevel(trx) === 'accounts';
  if (holding) enterPostingLock(trx, codes);
  let rows: TransferRow[];
  try {
    ({ rows } = await postTransfer(
      trx,
      command.kind,
      command.idempotencyKey,
      requestHash,
      command.ref === undefined ? null : JSON.stringify(command.ref),
      command.occurredAt ?? null,
      uncachedTextArray(codes, same),
      numberArray(amounts, same),
    ));
  } catch (error) {
    throw translateError(error, codes);
  }
  if (rows.length === 0) return replay(trx, command.idempotencyKey, requestHash);
  // Postings to accounts never opened are dropped by the join; a partial entry fails the balance
  // trigger, one with none of its accounts opened is caught here.
  if (rows.length !== codes.length || rows.some((r) => r.code === null)) throw new UnknownAccount(codes);
  if (!holding) enterPostingLock(trx, codes);
  return {
    entryId: rows[0]!.entry_id,
    replayed: false,
    postings: rows.map((r) => ({
      accountCode: r.code!,
      amountCents: r.amount,
      balanceAfter: r.balance_after,
    })),
  };
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

interface BatchRow {
  id: number;
  idempotency_key: string;
  postings: number;
}

/** Each an array literal (`@updown/runtime`'s array-literals). */
type BatchParams = [
  kinds: string,
  idempotencyKeys: string,
  requestHashes: string,
  refs: string,
  occurredAt: string,
  codes: string,
  lineCommands: string,
  lineAccounts: string,
  lineAmounts: string,
];

/**
 * `transferBatch`'s statement. Entry ids are drawn in command order before the insert, and lines
 * name their command and account by position: a line finds its entry by subscript, its account by
 * an integer, never by a join on keys or codes between the statement's parts. Joined that way, the
 * planner guessed millions of rows for a batch of 5,000 and spent longer compiling the statement
 * (JIT) than running it.
 */
const POST_BATCH = `
  with input as materialized (
    select i.kind, i.key, i.hash, i.ref, i.at, i.ord,
           nextval('ledger_entries_id_seq'::regclass) as id
    from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
      with ordinality as i (kind, key, hash, ref, at, ord)
  ),
  entries as (
    insert into ledger_entries (id, kind, idempotency_key, request_hash, ref, created_at)
    select id, kind, key, hash, ref::jsonb, coalesce(at::timestamptz, now())
    from input order by ord
    on conflict (idempotency_key) do nothing
    returning id, idempotency_key
  ),
  entry_of as (
    select array_agg(id order by ord) as ids,
           array_agg(coalesce(at::timestamptz, now()) order by ord) as ats
    from input
  ),
  locked as materialized (
    select a.id, c.account
    from unnest($6::text[]) with ordinality as c (code, account)
    join ledger_accounts a on a.code = c.code
    where (select count(*) from entries) >= 0
    order by a.id for update of a
  ),
  lines as materialized (
    select l.ord, l.account, l.amount, (select ids from entry_of)[l.command] as entry_id,
           (select ats from entry_of)[l.command] as at
    from unnest($7::int[], $8::int[], $9::bigint[]) with ordinality as l (command, account, amount, ord)
    where (select ids from entry_of)[l.command] in (select id from entries)
  ),
  deltas as (select account, sum(amount) as delta from lines group by account),
  updated as (
    update ledger_accounts a set balance = a.balance + d.delta
    from deltas d join locked l using (account)
    where a.id = l.id
    returning a.id, d.account, a.balance - d.delta as balance_before
  ),
  posted as (
    insert into ledger_postings (entry_id, account_id, amount, balance_after, created_at)
    select l.entry_id, u.id, l.amount,
           u.balance_before + sum(l.amount) over (partition by l.account order by l.ord), l.at
    from lines l left join updated u using (account)
    order by l.ord
    returning 1
  )
  select e.id, e.idempotency_key, (select count(*) from posted)::int as postings
  from entries e`;

/**
 * Most transfers in a `transferBatch` call that runs as a prepared statement: a placement batch's
 * stake holds are this size or smaller at any load the latency target holds at. PostgreSQL may
 * settle on a generic plan for a prepared statement, costed for an array parameter of ten or so
 * elements; at a few dozen transfers any plan is cheap, but a settlement batch of 10,000 under a
 * plan of nested loops chosen for ten rows would be quadratic. Larger calls run the same text
 * unnamed, planned for their own arrays each time; the prepared one is told apart by its comment.
 */
export const TRANSFER_BATCH_PREPARED_MAX = 64;

/** The same text unnamed, for the batches too large to share one plan. */
const postLargeBatch = unnamedStatement<BatchRow, BatchParams>(POST_BATCH);

const postSmallBatch = preparedStatement<BatchRow, BatchParams>(
  `-- at most ${TRANSFER_BATCH_PREPARED_MAX} transfers, prepared${POST_BATCH}`,
);

/**
 * Many transfers in one statement, for set-based work such as settling a batch of trades: it
 * inserts all entries (`on conflict do nothing`, so keys used before are replays that move
 * nothing), then locks every account the batch names in id order, applies each account's net
 * change and inserts the postings of the new entries with their running `balance_after`. A second
 * statement, only when some keys were used before, reads their request hashes.
 *
 * Same guarantees as `transfer`: each entry balances (checked here and by the database's trigger,
 * which sees all postings of the call in one statement), no user account goes below zero
 * (`InsufficientFunds`: nothing of the batch is written), a reused key with a different request
 * is an `IdempotencyConflict`. A thrown error leaves the caller's transaction unusable: roll back.
 *
 * Prepared only up to `TRANSFER_BATCH_PREPARED_MAX` transfers (a placement batch's stake holds):
 * PostgreSQL would settle on a generic plan after five runs, costed for the default size of an
 * array parameter, and a plan of nested loops between the statement's parts that is right for ten
 * rows is quadratic for a settlement batch of 10,000.
 */
export async function transferBatch(
  trx: SqlTransaction,
  commands: readonly BatchCommand[],
): Promise<BatchTransferResult> {
  if (commands.length === 0) return { entryIds: new Map(), replayedKeys: [], postings: 0 };
  if (commands.length > TRANSFER_BATCH_MAX) {
    throw new RangeError(
      `transferBatch takes at most ${TRANSFER_BATCH_MAX} transfers, got ${commands.length}`,
    );
  }
  const resolved = resolveBatch(commands);
  // Lines are numbered credits first: an account's running balance then only rises before it
  // falls, so no `balance_after` of a user account dips below zero inside the batch when its final
  // balance (which the check constraint guards) does not. Postings are inserted in that order, so
  // their ids follow the running sums `verifyLedger` checks.
  const codes = [...new Set(resolved.flatMap((r) => r.postings.map((p) => p.code)))];
  const codeIndex = new Map(codes.map((code, i) => [code, i + 1]));
  const lineCommand: number[] = [];
  const lineAccount: number[] = [];
  const lineAmount: number[] = [];
  for (const credit of [true, false]) {
    resolved.forEach((r, index) => {
      for (const p of r.postings) {
        if (p.amountCents > 0 !== credit) continue;
        lineCommand.push(index + 1);
        lineAccount.push(codeIndex.get(p.code)!);
        lineAmount.push(p.amountCents);
      }
    });
  }
  enterPostingLock(trx, codes);
  let rows: BatchRow[];
  try {
    const params: BatchParams = [
      textArray(resolved, kindOf),
      uncachedTextArray(resolved, keyOf),
      uncachedTextArray(resolved, hashOf),
      nullableTextArray(resolved, refOf),
      nullableTextArray(resolved, occurredAtOf),
      uncachedTextArray(codes, same),
      numberArray(lineCommand, same),
      numberArray(lineAccount, same),
      numberArray(lineAmount, same),
    ];
    ({ rows } = await (commands.length <= TRANSFER_BATCH_PREPARED_MAX ? postSmallBatch : postLargeBatch)(
      trx,
      ...params,
    ));
  } catch (error) {
    throw translateError(error, codes.slice(0, UNKNOWN_CODES_LISTED_MAX));
  }
  const entryIds = new Map(rows.map((r) => [r.idempotency_key, r.id]));
  const replays = resolved.filter((r) => !entryIds.has(r.command.idempotencyKey));
  if (replays.length > 0) await checkReplays(trx, replays, entryIds);
  return {
    entryIds,
    replayedKeys: replays.map((r) => r.command.idempotencyKey),
    postings: rows[0]?.postings ?? 0,
  };
}

interface ResolvedCommand {
  readonly command: BatchCommand;
  readonly postings: readonly ResolvedPosting[];
  readonly requestHash: string;
}

const same = <T>(value: T) => value;
const kindOf = (r: ResolvedCommand) => r.command.kind;
const keyOf = (r: ResolvedCommand) => r.command.idempotencyKey;
const hashOf = (r: ResolvedCommand) => r.requestHash;
const refOf = (r: ResolvedCommand) => (r.command.ref === undefined ? null : JSON.stringify(r.command.ref));
const occurredAtOf = (r: ResolvedCommand) => r.command.occurredAt?.toISOString() ?? null;

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
    const requestHash = hash('sha256', canonicalTransfer(command.kind, resolved.postings));
    return { command, postings: resolved.postings, requestHash };
  });
}

/** The first entries of replayed keys, fixed text so that it runs on any transaction. */
const selectEntriesByKeys = preparedStatement<
  { id: number; idempotency_key: string; request_hash: string },
  [keys: string]
>(`select id, idempotency_key, request_hash from ledger_entries where idempotency_key = any($1::text[])`);

async function checkReplays(
  trx: SqlTransaction,
  replays: readonly ResolvedCommand[],
  entryIds: Map<string, number>,
): Promise<void> {
  const { rows } = await selectEntriesByKeys(trx, uncachedTextArray(replays, keyOf));
  const existing = new Map(rows.map((r) => [r.idempotency_key, r]));
  for (const replay of replays) {
    const entry = existing.get(replay.command.idempotencyKey);
    if (!entry || entry.request_hash !== replay.requestHash) {
      throw new IdempotencyConflict(replay.command.idempotencyKey);
    }
    entryIds.set(replay.command.idempotencyKey, entry.id);
  }
}

/** An unbalanced batch names at most this many of its accounts: enough to find the unopened one. */
const UNKNOWN_CODES_LISTED_MAX = 20;

const selectEntryByKey = preparedStatement<{ id: number; request_hash: string }, [key: string]>(
  `select id, request_hash from ledger_entries where idempotency_key = $1`,
);

const selectEntryLines = preparedStatement<
  { code: string; amount: number; balance_after: number },
  [entryId: number]
>(`
  select a.code, p.amount, p.balance_after
  from ledger_postings p join ledger_accounts a on a.id = p.account_id
  where p.entry_id = $1 order by a.code`);

async function replay(
  trx: SqlTransaction,
  idempotencyKey: string,
  requestHash: string,
): Promise<TransferResult> {
  const [entry] = (await selectEntryByKey(trx, idempotencyKey)).rows;
  if (!entry) throw new Error(`ledger entry ${idempotencyKey} is gone`);
  if (entry.request_hash !== requestHash) throw new IdempotencyConflict(idempotencyKey);
  const { rows: lines } = await selectEntryLines(trx, entry.id);
  return {
    entryId: entry.id,
    replayed: true,
    postings: lines.map((l) => ({
      accountCode: l.code,
      amountCents: l.amount,
      balanceAfter: l.balance_after,
    })),
  };
}

function translateError(error: unknown, codes: string[]): unknown {
  const pgError = error as {
    code?: string;
    constraint?: string;
    column?: string;
    detail?: string;
    message?: string;
  };
  if (pgError.code !== PG_CHECK_VIOLATION && pgError.code !== PG_NOT_NULL_VIOLATION) return error;
  if (pgError.constraint === 'ledger_accounts_non_negative') {
    // "Failing row contains (id, code, ...)": name the account for logs; users see one message.
    const match = /Failing row contains \(\d+, ([^,]+),/.exec(pgError.detail ?? '');
    return new InsufficientFunds(match?.[1]);
  }
  if (pgError.code === PG_NOT_NULL_VIOLATION && pgError.column === 'account_id') {
    // `transferBatch` finds no id for an account that was never opened.
    return new UnknownAccount(codes);
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
  /** Positive is a credit to the account. */
  readonly amountCents: number;
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
    amountCents: r.amount,
    balanceAfter: r.balance_after,
    createdAt: r.created_at,
    ref: r.ref,
  }));
}
