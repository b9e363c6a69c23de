import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { chainHash } from '@updown/price-ingest';
import { recountBooks } from '@updown/order';
import type { Database } from '@updown/runtime';
import {
  accountCode,
  canonicalTransfer,
  DEMO_GRANT_CENTS,
  USER_ACCOUNT_TYPES,
  type TransferCommand,
} from '@updown/wallet';

/**
 * Seeds an expiry storm straight into a fresh migrated database, in a handful of set-based
 * statements, writing the trade and ledger rows placement would have written one by one: users
 * with their seven ledger accounts, the demo grant of registration and a real deposit (entries of
 * two postings from a system shard chosen by the same key hash the ledger uses), one pending trade
 * per stake hold (`trade_stake` entry keyed `trade:<id>:stake`, request hash over the same
 * canonical text, postings with running `balance_after`), balances equal to the sum of each
 * account's postings, and the feed's ticks up to the storm. Not written: payment-request rows
 * behind the deposits, which settlement never reads. Placing 100,000 trades through the order service would take minutes and
 * measure placement, not settlement.
 */

export interface StormSpec {
  readonly trades: number;
  readonly users: number;
  readonly pairs: number;
  /** Every trade expires in [expiryFromMs, expiryFromMs + expirySpreadMs). */
  readonly expiryFromMs: number;
  readonly expirySpreadMs: number;
  readonly durationSec: number;
  /** Stored ticks are on this grid, up to and including `expiryFromMs`. */
  readonly tickIntervalMs: number;
  /** One trade in `realEvery` (spread over pairs and directions) stakes real money, the others demo. */
  readonly realEvery: number;
}

export interface SeededStorm {
  readonly pairs: readonly string[];
  readonly userIds: readonly string[];
  readonly trades: number;
  readonly realTrades: number;
  readonly postings: number;
  readonly entries: number;
}

/** What registration grants (the wallet's `DEMO_GRANT_CENTS`) and what each user deposits for real trades. */
export const SEED_DEMO_GRANT_CENTS = DEMO_GRANT_CENTS;
export const SEED_REAL_DEPOSIT_CENTS = 100_000;
/** Stakes run from $1.00 to $100.00; five trades a user stay well inside either balance. */
export const SEED_STAKE_CENTS_MIN = 100;
export const SEED_STAKE_CENTS_SPAN = 9_901;
/** How far before its expiry each ticked history starts: the entries need a tick before acceptance. */
const HISTORY_BEFORE_EXPIRY_MS = 1_000;

/** A sine around each pair's reference price, on the tick grid, chained per pair. */
function chainedHistory(
  pairs: readonly { symbol: string; reference_price: number | null; sort_order: number }[],
  fromMs: number,
  toMs: number,
  stepMs: number,
) {
  const ticks: { pair: string; atMs: number; price: number; seq: number; prevHash: Buffer; hash: Buffer }[] =
    [];
  for (const pair of pairs) {
    let prevHash: Buffer = Buffer.alloc(32);
    let seq = 0;
    for (let atMs = fromMs; atMs <= toMs; atMs += stepMs) {
      const price = (pair.reference_price ?? 100) * (1 + 0.002 * Math.sin(atMs / 9000 + pair.sort_order));
      seq++;
      const hash = chainHash(pair.symbol, seq, atMs, price, prevHash);
      ticks.push({ pair: pair.symbol, atMs, price, seq, prevHash, hash });
      prevHash = hash;
    }
  }
  return ticks;
}

function requestHash(command: TransferCommand): string {
  const postings = command.postings
    .map((p) => ({ code: accountCode(p.account, command.idempotencyKey), amountCents: p.amountCents }))
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return createHash('sha256').update(canonicalTransfer(command.kind, postings)).digest('hex');
}

interface FundingEntry {
  readonly key: string;
  readonly kind: string;
  readonly hash: string;
  readonly ref: string;
  readonly systemCode: string;
  readonly userCode: string;
  readonly amount: number;
}

/** The two entries every seeded user starts with, shaped as registration and a deposit write them. */
function fundingEntries(userId: string, depositId: string): FundingEntry[] {
  const grant: TransferCommand = {
    kind: 'demo_grant',
    idempotencyKey: `demo_grant:${userId}`,
    postings: [
      { account: { system: 'demo_issuance' }, amountCents: -SEED_DEMO_GRANT_CENTS },
      { account: { owner: userId, type: 'demo' }, amountCents: SEED_DEMO_GRANT_CENTS },
    ],
    ref: { userId },
  };
  const deposit: TransferCommand = {
    kind: 'deposit',
    idempotencyKey: `deposit:${depositId}`,
    postings: [
      { account: { system: 'payments_clearing' }, amountCents: -SEED_REAL_DEPOSIT_CENTS },
      { account: { owner: userId, type: 'real' }, amountCents: SEED_REAL_DEPOSIT_CENTS },
    ],
    ref: { depositId },
  };
  return [grant, deposit].map((command) => ({
    key: command.idempotencyKey,
    kind: command.kind,
    hash: requestHash(command),
    ref: JSON.stringify(command.ref),
    systemCode: accountCode(command.postings[0]!.account, command.idempotencyKey),
    userCode: accountCode(command.postings[1]!.account, command.idempotencyKey),
    amount: command.postings[1]!.amountCents,
  }));
}

export async function seedStorm(db: Kysely<Database>, spec: StormSpec): Promise<SeededStorm> {
  if (spec.expiryFromMs % spec.tickIntervalMs !== 0) {
    throw new RangeError('expiryFromMs must fall on the tick grid');
  }
  const pairRows = await db
    .selectFrom('market_pairs')
    .select(['symbol', 'reference_price', 'sort_order'])
    .where('active', '=', true)
    .orderBy('sort_order')
    .orderBy('symbol')
    .limit(spec.pairs)
    .execute();
  if (pairRows.length < spec.pairs) {
    throw new Error(`the storm needs ${spec.pairs} active pairs, the database has ${pairRows.length}`);
  }
  const pairs = pairRows.map((p) => p.symbol);
  const userIds = Array.from({ length: spec.users }, () => randomUUID());
  const funding = userIds.flatMap((id) => fundingEntries(id, randomUUID()));
  const fundedAt = new Date(spec.expiryFromMs - spec.durationSec * 1000 - 60_000);
  const historyFromMs = spec.expiryFromMs - spec.durationSec * 1000 - HISTORY_BEFORE_EXPIRY_MS;

  await db.transaction().execute(async (trx) => {
    const existing = await sql<{ n: number }>`
      select (select count(*) from ledger_entries) + (select count(*) from ledger_postings) as n`.execute(
      trx,
    );
    if (Number(existing.rows[0]!.n) > 0) {
      throw new Error('seedStorm numbers entries and postings from 1: it needs an empty ledger');
    }
    // A bulk load, as pg_restore does it: per-row foreign-key checks and the balance trigger are
    // skipped when the role may (superuser); the benchmark verifies the whole ledger afterwards.
    const role = await sql<{ superuser: boolean }>`
      select rolsuper as superuser from pg_roles where rolname = current_user`.execute(trx);
    if (role.rows[0]?.superuser) await sql`set local session_replication_role = replica`.execute(trx);

    // The feed's ticks, hash-chained per pair as price-ingest writes them (docs/receipts.md).
    const ticks = chainedHistory(pairRows, historyFromMs, spec.expiryFromMs, spec.tickIntervalMs);
    await sql`
      insert into market_ticks (pair, at_ms, price, seq, prev_hash, hash)
      select * from unnest(${ticks.map((t) => t.pair)}::text[], ${ticks.map((t) => t.atMs)}::bigint[],
                           ${ticks.map((t) => t.price)}::float8[], ${ticks.map((t) => t.seq)}::bigint[],
                           ${ticks.map((t) => t.prevHash)}::bytea[], ${ticks.map((t) => t.hash)}::bytea[])`.execute(
      trx,
    );

    await sql`
      insert into users (id, email, name, password_hash, created_at, updated_at)
      select u.id, 'storm-' || u.n || '@example.test', 'Storm Trader', 'seeded-without-password', ${fundedAt}, ${fundedAt}
      from unnest(${userIds}::uuid[]) with ordinality as u (id, n)`.execute(trx);
    await sql`
      insert into ledger_accounts (code, owner_id, type)
      select 'user:' || u.id || ':' || t.type, u.id, t.type
      from unnest(${userIds}::uuid[]) as u (id)
      cross join unnest(${[...USER_ACCOUNT_TYPES]}::text[]) as t (type)`.execute(trx);

    // Every trade in one temporary table, so the trade, its entry and its postings agree. `seq`
    // numbers the trades in acceptance order: the order their stakes would have been written.
    await sql`
      create temporary table storm_trades on commit drop as
      select *, row_number() over (order by expiry_at_ms, n) as seq
      from (
        select gen_random_uuid() as id,
               (${userIds}::uuid[])[g % ${spec.users} + 1] as user_id,
               (${pairs}::text[])[g % ${spec.pairs} + 1] as pair,
               case when (g / ${spec.pairs}) % 2 = 0 then 'UP' else 'DOWN' end as direction,
               case when (g / ${spec.pairs}) % ${spec.realEvery} = 0 then 'real' else 'demo' end as account_type,
               ${SEED_STAKE_CENTS_MIN} + (g * 7919) % ${SEED_STAKE_CENTS_SPAN} as amount_cents,
               ${spec.expiryFromMs}::bigint + (g * 7877) % ${spec.expirySpreadMs} as expiry_at_ms,
               g as n
        from generate_series(0::bigint, ${spec.trades - 1}::bigint) as g
      ) t`.execute(trx);
    await sql`
      insert into trades (id, user_id, pair, direction, account_type, amount_cents, stake_cash_cents,
                          stake_bonus_cents, payout_pct, duration_sec, entry_price, entry_at_ms, accepted_at_ms,
                          expiry_at_ms, created_at)
      select t.id, t.user_id, t.pair, t.direction, t.account_type, t.amount_cents, t.amount_cents, 0,
             p.payout_pct, ${spec.durationSec}, m.price, m.at_ms, t.expiry_at_ms - ${spec.durationSec * 1000},
             t.expiry_at_ms, to_timestamp((t.expiry_at_ms - ${spec.durationSec * 1000}) / 1000.0)
      from storm_trades t
      join market_pairs p on p.symbol = t.pair
      join market_ticks m on m.pair = t.pair
        and m.at_ms = (t.expiry_at_ms - ${spec.durationSec * 1000}) / ${spec.tickIntervalMs} * ${spec.tickIntervalMs}`.execute(
      trx,
    );

    // Entries get their ids here: funding first (1..F), then the stakes in acceptance order (F + seq).
    const fundingCount = funding.length;
    await sql`
      insert into ledger_entries (id, kind, idempotency_key, request_hash, ref, created_at)
      select f.ord, f.kind, f.key, f.hash, f.ref::jsonb, ${fundedAt}
      from unnest(${funding.map((f) => f.kind)}::text[], ${funding.map((f) => f.key)}::text[],
                  ${funding.map((f) => f.hash)}::text[], ${funding.map((f) => f.ref)}::text[])
        with ordinality as f (kind, key, hash, ref, ord)`.execute(trx);
    // The request hash is sha256 of the ledger's canonical text: postings sorted by account code
    // ("user:<id>:demo" sorts before "user:<id>:demo_in_play"), as JSON without spaces.
    await sql`
      insert into ledger_entries (id, kind, idempotency_key, request_hash, ref, created_at)
      select ${fundingCount}::bigint + t.seq, 'trade_stake', 'trade:' || t.id || ':stake',
             encode(sha256(convert_to(format('["trade_stake",[["user:%s:%s",%s],["user:%s:%s_in_play",%s]]]',
               t.user_id, t.account_type, -t.amount_cents, t.user_id, t.account_type, t.amount_cents), 'UTF8')), 'hex'),
             jsonb_build_object('tradeId', t.id),
             to_timestamp((t.expiry_at_ms - ${spec.durationSec * 1000}) / 1000.0)
      from storm_trades t`.execute(trx);
    await sql`select setval(pg_get_serial_sequence('ledger_entries', 'id'), (select max(id) from ledger_entries))`.execute(
      trx,
    );

    // Postings numbered in the order the transfers would have run (entry, then debit before
    // credit), each with its account's running balance.
    await sql`
      with lines (entry_id, side, code, amount, at) as (
        select f.ord, s.side, case s.side when 0 then f.system_code else f.user_code end,
               case s.side when 0 then -f.amount else f.amount end, ${fundedAt}::timestamptz
        from unnest(${funding.map((f) => f.systemCode)}::text[], ${funding.map((f) => f.userCode)}::text[],
                    ${funding.map((f) => f.amount)}::bigint[])
          with ordinality as f (system_code, user_code, amount, ord)
        cross join (values (0), (1)) as s (side)
        union all
        select ${fundingCount}::bigint + t.seq, s.side,
               'user:' || t.user_id || ':' || t.account_type || case s.side when 0 then '' else '_in_play' end,
               case s.side when 0 then -t.amount_cents else t.amount_cents end,
               to_timestamp((t.expiry_at_ms - ${spec.durationSec * 1000}) / 1000.0)
        from storm_trades t cross join (values (0), (1)) as s (side)
      ),
      resolved as (
        select l.entry_id * 2 + l.side as ord, l.entry_id, a.id as account_id, l.amount, l.at
        from lines l join ledger_accounts a on a.code = l.code
      )
      insert into ledger_postings (id, entry_id, account_id, amount, balance_after, created_at)
      select row_number() over (order by ord), entry_id, account_id, amount,
             sum(amount) over (partition by account_id order by ord), at
      from resolved
      order by ord`.execute(trx);
    await sql`select setval(pg_get_serial_sequence('ledger_postings', 'id'), (select max(id) from ledger_postings))`.execute(
      trx,
    );
    await sql`
      update ledger_accounts a set balance = s.total
      from (select account_id, sum(amount) as total from ledger_postings group by account_id) s
      where a.id = s.account_id`.execute(trx);
    // The pairs' risk books, as placing these trades would have left them.
    await recountBooks(trx);
  });

  const counts = await sql<{ postings: number; entries: number; real: number }>`
    select (select count(*)::int from ledger_postings) as postings,
           (select count(*)::int from ledger_entries) as entries,
           (select count(*)::int from trades where account_type = 'real') as real`.execute(db);
  const row = counts.rows[0]!;
  return {
    pairs,
    userIds,
    trades: spec.trades,
    realTrades: row.real,
    postings: row.postings,
    entries: row.entries,
  };
}
