import { sql, type Kysely, type Transaction } from 'kysely';
import { priceText } from '@updown/verify/chain';
import type { Database } from '@updown/runtime';
import type { ChainTick } from './checkpoints';

type Db = Kysely<Database> | Transaction<Database>;

/** Most ticks one segment read returns: several checkpoint intervals of a fast feed. */
export const SEGMENT_TICKS_MAX = 20_000;

/** A stored tick of a chain, with its row id. */
export interface StoredChainTick extends ChainTick {
  readonly id: number;
}

interface ChainTickRow {
  readonly id: number;
  readonly seq: number;
  readonly at_ms: number;
  readonly price: number;
  readonly prev_hash: Buffer;
  readonly hash: Buffer;
}

function chainTickOf(row: ChainTickRow): StoredChainTick {
  return {
    id: row.id,
    seq: row.seq,
    atMs: row.at_ms,
    price: priceText(row.price),
    prevHash: row.prev_hash.toString('hex'),
    hash: row.hash.toString('hex'),
  };
}

/** A stored chained tick, saying whether a receipt pinned it. */
export type PinnableChainTick = StoredChainTick & { readonly pinned: boolean };

/** The chained ticks of `pair` from `fromSeq`, in chain order: the base of the two reads below. */
function chainTicksFrom(db: Db, pair: string, fromSeq: number) {
  return db
    .selectFrom('market_ticks')
    .select(['id', 'seq', 'at_ms', 'price', 'prev_hash', 'hash', 'pinned'])
    .where('pair', '=', pair)
    .where('seq', '>=', fromSeq)
    .orderBy('seq');
}

function pinnableOf(row: ChainTickRow & { readonly pinned: boolean }): PinnableChainTick {
  return { ...chainTickOf(row), pinned: row.pinned };
}

/**
 * The stored ticks of `pair` from `fromSeq` to `toSeq`, in chain order (gaps are the caller's to
 * find: retention's, or a deleted tick).
 */
export async function chainSegment(
  db: Db,
  pair: string,
  fromSeq: number,
  toSeq: number,
): Promise<PinnableChainTick[]> {
  if (toSeq - fromSeq + 1 > SEGMENT_TICKS_MAX) {
    throw new RangeError(`a segment holds at most ${SEGMENT_TICKS_MAX} ticks`);
  }
  const rows = await chainTicksFrom(db, pair, fromSeq).where('seq', '<=', toSeq).execute();
  return rows.map((row) => pinnableOf(row as ChainTickRow & { pinned: boolean }));
}

/** What a receipt names for one trade (see `receiptTicks`). */
export interface ReceiptTickQuery {
  readonly pair: string;
  readonly entryAtMs: number;
  readonly entryPrice: number;
  readonly expiryAtMs: number;
}

export interface ReceiptTicks {
  /** The chained tick the entry price came from: same pair, instant and price. */
  readonly entry: StoredChainTick | null;
  /** The stored tick with the greatest `at_ms <= expiry` (settlement's exit look-up), if chained. */
  readonly exit: StoredChainTick | null;
  /** The next tick of the chain after `exit` (or the first after the expiry when there is no exit). */
  readonly after: StoredChainTick | null;
  /** The checkpoint covering `entry`, if signed yet. */
  readonly entryCheckpoint: CheckpointHead | null;
  /** The checkpoint covering `after` (else `exit`), if signed yet. */
  readonly exitCheckpoint: CheckpointHead | null;
  /** The exit look-up found a tick stored before the chain existed: the trade predates the chain. */
  readonly exitUnchained: boolean;
}

export interface CheckpointHead {
  readonly toSeq: number;
  readonly headHash: string;
}

const TICK_COLUMNS = sql.raw('id, seq, at_ms, price, prev_hash, hash');

/**
 * For each query, the chained ticks a receipt names and the checkpoints covering them, in one
 * statement. Queries that differ only by trade share a row: callers pass distinct ones.
 */
export async function receiptTicks(db: Db, queries: readonly ReceiptTickQuery[]): Promise<ReceiptTicks[]> {
  if (queries.length === 0) return [];
  type Row = { n: string } & Record<string, unknown>;
  const { rows } = await sql<Row>`
    select q.n,
           e.id as e_id, e.seq as e_seq, e.at_ms as e_at_ms, e.price as e_price, e.prev_hash as e_prev_hash, e.hash as e_hash,
           x.id as x_id, x.seq as x_seq, x.at_ms as x_at_ms, x.price as x_price, x.prev_hash as x_prev_hash, x.hash as x_hash,
           a.id as a_id, a.seq as a_seq, a.at_ms as a_at_ms, a.price as a_price, a.prev_hash as a_prev_hash, a.hash as a_hash,
           ce.to_seq as ce_to_seq, ce.head_hash as ce_head_hash, cx.to_seq as cx_to_seq, cx.head_hash as cx_head_hash,
           (x0.id is not null and x0.seq is null) as exit_unchained
    from unnest(${queries.map((q) => q.pair)}::text[], ${queries.map((q) => q.entryAtMs)}::bigint[],
                ${queries.map((q) => q.entryPrice)}::float8[], ${queries.map((q) => q.expiryAtMs)}::bigint[])
         with ordinality as q (pair, entry_at_ms, entry_price, expiry_at_ms, n)
    left join lateral (
      select ${TICK_COLUMNS} from market_ticks
      where pair = q.pair and at_ms = q.entry_at_ms and price = q.entry_price and seq is not null
      order by seq limit 1
    ) e on true
    left join lateral (
      select ${TICK_COLUMNS} from market_ticks
      where pair = q.pair and at_ms <= q.expiry_at_ms order by at_ms desc, id desc limit 1
    ) x0 on true
    left join lateral (select x0.* where x0.seq is not null) x on true
    left join lateral (
      select ${TICK_COLUMNS} from market_ticks
      where pair = q.pair and seq is not null
        and (case when x.seq is not null then seq = x.seq + 1 else at_ms > q.expiry_at_ms end)
      order by seq limit 1
    ) a on true
    left join lateral (
      select to_seq, head_hash from tick_checkpoints where pair = q.pair and to_seq >= e.seq order by to_seq limit 1
    ) ce on true
    left join lateral (
      select to_seq, head_hash from tick_checkpoints where pair = q.pair and to_seq >= coalesce(a.seq, x.seq)
      order by to_seq limit 1
    ) cx on true
    order by q.n`.execute(db);
  const tick = (row: Row, p: string): StoredChainTick | null =>
    row[`${p}_seq`] === null
      ? null
      : chainTickOf({
          id: row[`${p}_id`] as number,
          seq: row[`${p}_seq`] as number,
          at_ms: row[`${p}_at_ms`] as number,
          price: row[`${p}_price`] as number,
          prev_hash: row[`${p}_prev_hash`] as Buffer,
          hash: row[`${p}_hash`] as Buffer,
        });
  return rows.map((row) => ({
    entry: tick(row, 'e'),
    exit: tick(row, 'x'),
    after: tick(row, 'a'),
    entryCheckpoint: checkpointHead(row.ce_to_seq, row.ce_head_hash),
    exitCheckpoint: checkpointHead(row.cx_to_seq, row.cx_head_hash),
    exitUnchained: row.exit_unchained === true,
  }));
}

function checkpointHead(toSeq: unknown, headHash: unknown): CheckpointHead | null {
  return toSeq === null || toSeq === undefined
    ? null
    : { toSeq: toSeq as number, headHash: (headHash as Buffer).toString('hex') };
}

/** Marks ticks a receipt names, so retention keeps them. */
export async function pinTicks(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`update market_ticks set pinned = true where id = any(${[...new Set(ids)]}::bigint[]) and not pinned`.execute(
    db,
  );
}

/** The chained ticks of `pair` after `afterSeq` in order, at most `limit` (the ledger check pages through). */
export async function chainTicksAfter(
  db: Db,
  pair: string,
  afterSeq: number,
  limit: number,
): Promise<PinnableChainTick[]> {
  const rows = await chainTicksFrom(db, pair, afterSeq + 1)
    .limit(limit)
    .execute();
  return rows.map((row) => pinnableOf(row as ChainTickRow & { pinned: boolean }));
}

/** The pairs that have a chain, found through the (pair, seq) index. */
export async function chainedPairs(db: Db): Promise<string[]> {
  const { rows } = await sql<{ pair: string }>`select distinct pair from tick_checkpoints
    union select distinct pair from market_ticks where seq = 1 order by pair`.execute(db);
  return rows.map((r) => r.pair);
}
