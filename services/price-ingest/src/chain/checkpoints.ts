import { sql, type Kysely, type Transaction } from 'kysely';
import {
  createLoopSlicer,
  type Clock,
  type Database,
  type Signature,
  type SigningKey,
} from '@updown/runtime';
import { pairsWithTicks } from '../market.repository';

type Db = Kysely<Database> | Transaction<Database>;

/** Pairs one checkpoint pass looks at. */
const CHECKPOINT_PAIRS_MAX = 10_000;

/** A checkpoint as it is signed (docs/receipts.md): canonical JSON of exactly these fields. */
export interface Checkpoint {
  readonly type: 'updown.checkpoint.v1';
  readonly pair: string;
  readonly fromSeq: number;
  readonly toSeq: number;
  readonly ticks: number;
  readonly fromMs: number;
  readonly toMs: number;
  readonly startHash: string;
  readonly headHash: string;
  readonly signedAtMs: number;
}

export interface SignedCheckpoint {
  readonly checkpoint: Checkpoint;
  readonly signature: Signature;
}

/** A chained tick as receipts and proofs carry it. */
export interface ChainTick {
  readonly seq: number;
  readonly atMs: number;
  readonly price: string;
  readonly prevHash: string;
  readonly hash: string;
}

interface CheckpointRow {
  readonly pair: string;
  readonly from_seq: number;
  readonly to_seq: number;
  readonly from_ms: number;
  readonly to_ms: number;
  readonly start_hash: Buffer;
  readonly head_hash: Buffer;
  readonly signed_at_ms: number;
  readonly key_id: string;
  readonly signature: Buffer;
}

function checkpointOf(row: Omit<CheckpointRow, 'key_id' | 'signature'>): Checkpoint {
  return {
    type: 'updown.checkpoint.v1',
    pair: row.pair,
    fromSeq: row.from_seq,
    toSeq: row.to_seq,
    ticks: row.to_seq - row.from_seq + 1,
    fromMs: row.from_ms,
    toMs: row.to_ms,
    startHash: row.start_hash.toString('hex'),
    headHash: row.head_hash.toString('hex'),
    signedAtMs: row.signed_at_ms,
  };
}

function signedOf(row: CheckpointRow): SignedCheckpoint {
  return {
    checkpoint: checkpointOf(row),
    signature: { alg: 'Ed25519', kid: row.key_id, sig: row.signature.toString('base64url') },
  };
}

/**
 * One checkpoint pass: for every pair whose chain grew since its last checkpoint, signs the range
 * of new ticks (from the tick after the last checkpoint to the current head) and stores it. Each
 * checkpoint starts where the previous one ended, so the checkpoints of a pair chain too. Returns
 * the pairs checkpointed. Price-ingest is the only caller: checkpoints have one writer, like ticks.
 * The signing time is read after the heads are: a time read before them could precede a tick stored
 * meanwhile, and the checkpoint would claim to be signed before its last tick.
 */
export async function signCheckpoints(
  db: Kysely<Database>,
  key: SigningKey,
  clock: Pick<Clock, 'nowMs'>,
): Promise<string[]> {
  const pairs = await pairsWithTicks(db, CHECKPOINT_PAIRS_MAX);
  if (pairs.length === 0) return [];
  const { rows } = await sql<Omit<CheckpointRow, 'key_id' | 'signature' | 'signed_at_ms'>>`
    with heads as (
      select p.pair, h.seq as to_seq, h.at_ms as to_ms, h.hash as head_hash, coalesce(c.to_seq, 0) as last_to_seq
      from unnest(${pairs}::text[]) as p (pair)
      cross join lateral (
        select seq, at_ms, hash from market_ticks where pair = p.pair and seq is not null order by seq desc limit 1
      ) h
      left join lateral (
        select to_seq from tick_checkpoints where pair = p.pair order by to_seq desc limit 1
      ) c on true
    )
    select heads.pair, f.seq as from_seq, heads.to_seq, f.at_ms as from_ms, heads.to_ms,
           f.prev_hash as start_hash, heads.head_hash
    from heads
    cross join lateral (
      select seq, at_ms, prev_hash from market_ticks
      where pair = heads.pair and seq > heads.last_to_seq and seq is not null order by seq limit 1
    ) f
    where heads.to_seq > heads.last_to_seq`.execute(db);
  if (rows.length === 0) return [];
  const nowMs = clock.nowMs();
  // One signature per pair, and a pass may cover up to CHECKPOINT_PAIRS_MAX of them: the loop
  // turns between slices so placements in the same process do not wait for every signature.
  const slicer = createLoopSlicer();
  const signed: { row: (typeof rows)[number]; signature: Signature }[] = [];
  for (const row of rows) {
    if (slicer.due()) await slicer.yield();
    const checkpoint = checkpointOf({ ...row, signed_at_ms: nowMs });
    signed.push({ row, signature: key.sign(checkpoint) });
  }
  await sql`
    insert into tick_checkpoints (pair, from_seq, to_seq, from_ms, to_ms, start_hash, head_hash, signature, signed_at_ms, key_id)
    select *, ${nowMs}::bigint, ${key.kid}::text
    from unnest(${signed.map((s) => s.row.pair)}::text[], ${signed.map((s) => s.row.from_seq)}::bigint[],
                ${signed.map((s) => s.row.to_seq)}::bigint[], ${signed.map((s) => s.row.from_ms)}::bigint[],
                ${signed.map((s) => s.row.to_ms)}::bigint[], ${signed.map((s) => s.row.start_hash)}::bytea[],
                ${signed.map((s) => s.row.head_hash)}::bytea[],
                ${signed.map((s) => Buffer.from(s.signature.sig, 'base64url'))}::bytea[])
    on conflict (pair, to_seq) do nothing`.execute(db);
  return signed.map((s) => s.row.pair);
}

/** The newest checkpoints of a pair, newest first; before `beforeToSeq` when given (paging). */
export async function listCheckpoints(
  db: Db,
  pair: string,
  limit: number,
  beforeToSeq?: number,
): Promise<SignedCheckpoint[]> {
  let query = db.selectFrom('tick_checkpoints').selectAll().where('pair', '=', pair);
  if (beforeToSeq !== undefined) query = query.where('to_seq', '<', beforeToSeq);
  const rows = await query.orderBy('to_seq', 'desc').limit(limit).execute();
  return rows.map(signedOf);
}

/** The checkpoint of `pair` ending at `toSeq`. */
export async function findCheckpoint(
  db: Db,
  pair: string,
  toSeq: number,
): Promise<SignedCheckpoint | undefined> {
  const row = await db
    .selectFrom('tick_checkpoints')
    .selectAll()
    .where('pair', '=', pair)
    .where('to_seq', '=', toSeq)
    .executeTakeFirst();
  return row ? signedOf(row) : undefined;
}

/** Every checkpoint of a pair in chain order, after `afterToSeq` (paging for the ledger check). */
export async function checkpointsAfter(
  db: Db,
  pair: string,
  afterToSeq: number,
  limit: number,
): Promise<SignedCheckpoint[]> {
  const rows = await db
    .selectFrom('tick_checkpoints')
    .selectAll()
    .where('pair', '=', pair)
    .where('to_seq', '>', afterToSeq)
    .orderBy('to_seq')
    .limit(limit)
    .execute();
  return rows.map(signedOf);
}
