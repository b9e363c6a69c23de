import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { GENESIS_HASH, priceText, tickContent, tickTimeProblem } from '@updown/verify/chain';
import type { Database } from '@updown/runtime';
import type { Tick } from '../feed/price-provider';

type Db = Kysely<Database> | Transaction<Database>;

/** A tick with its place in its pair's hash chain (docs/receipts.md). */
export interface ChainedTick extends Tick {
  readonly seq: number;
  readonly prevHash: Buffer;
  readonly hash: Buffer;
}

/** What a batch became: the ticks linked into their chains, and those refused. */
export interface LinkedTicks {
  readonly chained: ChainedTick[];
  /**
   * Ticks whose time is not later than their pair's head (or than the tick linked before them in
   * the batch): tick times rise strictly along a chain (docs/receipts.md), so they are never stored.
   */
  readonly refused: Tick[];
}

interface Head {
  readonly seq: number;
  readonly hash: Buffer;
  /** The head tick's time; null before a pair's first tick. */
  readonly atMs: number | null;
}

const GENESIS = Buffer.from(GENESIS_HASH, 'hex');

/** The hash of a tick at `seq` after `prevHash`: SHA-256 of its content string. */
export function chainHash(pair: string, seq: number, atMs: number, price: number, prevHash: Buffer): Buffer {
  const content = tickContent({
    pair,
    seq,
    atMs,
    price: priceText(price),
    prevHash: prevHash.toString('hex'),
  });
  return createHash('sha256').update(content, 'utf8').digest();
}

/**
 * The heads of the pairs' chains as price-ingest, their single writer, extends them. A batch is
 * linked before it is written and the heads move only once its transaction committed, so a failed
 * write leaves them where the stored chain ends. A pair first seen (or forgotten after a failed
 * write) has its head read back from the table; the unique (pair, seq) index makes a second writer's
 * fork fail rather than branch. A tick not later than its pair's head is refused (the verifier's
 * `tickTimeProblem`): with times rising strictly, the last tick at or before an instant is one tick,
 * and the tick after it proves that nothing was stored between.
 */
export class TickChain {
  private readonly heads = new Map<string, Head>();

  /**
   * Links `ticks` (each pair's in order) after the current heads, refusing each tick not later
   * than the one it would follow; changes nothing until `commit`.
   */
  async link(db: Db, ticks: readonly Tick[]): Promise<LinkedTicks> {
    await this.loadHeads(
      db,
      [...new Set(ticks.map((t) => t.pair))].filter((pair) => !this.heads.has(pair)),
    );
    const next = new Map(this.heads);
    const chained: ChainedTick[] = [];
    const refused: Tick[] = [];
    for (const tick of ticks) {
      const head = next.get(tick.pair);
      const seq = (head?.seq ?? 0) + 1;
      const headAtMs = head?.atMs ?? null;
      if (headAtMs !== null && tickTimeProblem({ seq: seq - 1, atMs: headAtMs }, { seq, atMs: tick.atMs })) {
        refused.push(tick);
        continue;
      }
      const prevHash = head?.hash ?? GENESIS;
      const hash = chainHash(tick.pair, seq, tick.atMs, tick.price, prevHash);
      next.set(tick.pair, { seq, hash, atMs: tick.atMs });
      chained.push({ ...tick, seq, prevHash, hash });
    }
    return { chained, refused };
  }

  /** The linked ticks are stored: their pairs' heads move to the last of each. */
  commit(ticks: readonly ChainedTick[]): void {
    for (const tick of ticks) this.heads.set(tick.pair, { seq: tick.seq, hash: tick.hash, atMs: tick.atMs });
  }

  /** A write failed: read these pairs' heads from the table again before the next link. */
  forget(pairs: Iterable<string>): void {
    for (const pair of pairs) this.heads.delete(pair);
  }

  private async loadHeads(db: Db, pairs: readonly string[]): Promise<void> {
    if (pairs.length === 0) return;
    const { rows } = await sql<{ pair: string; seq: number; hash: Buffer; at_ms: number }>`
      select p.pair, h.seq, h.hash, h.at_ms
      from unnest(${pairs}::text[]) as p (pair)
      cross join lateral (
        select seq, hash, at_ms from market_ticks
        where pair = p.pair and seq is not null order by seq desc limit 1
      ) h`.execute(db);
    for (const row of rows) this.heads.set(row.pair, { seq: row.seq, hash: row.hash, atMs: row.at_ms });
    for (const pair of pairs)
      if (!this.heads.has(pair)) this.heads.set(pair, { seq: 0, hash: GENESIS, atMs: null });
  }
}
