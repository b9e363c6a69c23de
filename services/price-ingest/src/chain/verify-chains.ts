import type { Kysely } from 'kysely';
import type { Database, KeySet } from '@updown/runtime';
import { verifyCheckpoint } from '@updown/verify';
import { GENESIS_HASH, tickTimeProblem } from '@updown/verify/chain';
import { nodeCrypto } from '@updown/verify/node';
import { chainedPairs, chainTicksAfter } from './chain.repository';
import { checkpointsAfter, type SignedCheckpoint } from './checkpoints';
import { chainHash } from './tick-chain';
import { sql } from 'kysely';

export interface ChainViolation {
  readonly check:
    | 'tick_hash_mismatch'
    | 'tick_link_broken'
    | 'tick_missing'
    | 'tick_unchained_inside_chain'
    | 'tick_time_not_rising'
    | 'checkpoint_invalid'
    | 'checkpoint_mismatch';
  readonly detail: string;
}

export interface ChainReport {
  readonly pairs: number;
  readonly ticks: number;
  readonly checkpoints: number;
  readonly violations: readonly ChainViolation[];
  readonly truncated: number;
}

const PAGE = 5_000;
const LISTED_MAX = 50;

/**
 * Proves every pair's tick chain from the stored ticks alone, naming where it breaks: each tick's
 * hash against its content (a changed price, time or number), each link to the tick before it
 * (an inserted or replaced tick), no missing number (a deleted tick; the chain may only start
 * after a checkpoint's head, where retention cut it), times rising strictly along the chain, no
 * unchained tick inside the chain's time span (a row slipped in beside the chain), and every checkpoint: its signature against the key
 * set, its start and head against the stored ticks, and its link to the checkpoint before it.
 */
export async function verifyTickChains(db: Kysely<Database>, keySet: KeySet): Promise<ChainReport> {
  const violations: ChainViolation[] = [];
  let truncated = 0;
  const report = (violation: ChainViolation) => {
    if (violations.length < LISTED_MAX) violations.push(violation);
    else truncated++;
  };
  let ticks = 0;
  let checkpoints = 0;
  const pairs = await chainedPairs(db);
  for (const pair of pairs) {
    // Each checkpoint's signed head by its last seq, and its signed start by its first seq.
    const endsAt = new Map<number, string>();
    const startsAt = new Map<number, string>();
    let previousCheckpoint: SignedCheckpoint | undefined;
    for (let after = 0; ;) {
      const page = await checkpointsAfter(db, pair, after, PAGE);
      for (const signed of page) {
        checkpoints++;
        const { checkpoint } = signed;
        const checked = await verifyCheckpoint(signed, keySet, nodeCrypto);
        if (!checked.valid) {
          report({
            check: 'checkpoint_invalid',
            detail: `${pair} checkpoint to ${checkpoint.toSeq}: ${checked.problems.join('; ')}`,
          });
        }
        if (
          previousCheckpoint &&
          (checkpoint.fromSeq !== previousCheckpoint.checkpoint.toSeq + 1 ||
            checkpoint.startHash !== previousCheckpoint.checkpoint.headHash)
        ) {
          report({
            check: 'checkpoint_mismatch',
            detail: `${pair} checkpoint to ${checkpoint.toSeq} does not start where checkpoint to ${previousCheckpoint.checkpoint.toSeq} ended`,
          });
        }
        endsAt.set(checkpoint.toSeq, checkpoint.headHash);
        startsAt.set(checkpoint.fromSeq, checkpoint.startHash);
        previousCheckpoint = signed;
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1]!.checkpoint.toSeq;
    }
    let previous: { seq: number; hash: string; pinned: boolean; atMs: number } | undefined;
    let firstAtMs: number | undefined;
    let lastAtMs: number | undefined;
    for (let after = 0; ;) {
      const page = await chainTicksAfter(db, pair, after, PAGE);
      for (const tick of page) {
        ticks++;
        firstAtMs ??= tick.atMs;
        lastAtMs = tick.atMs;
        const recomputed = chainHash(
          pair,
          tick.seq,
          tick.atMs,
          Number(tick.price),
          Buffer.from(tick.prevHash, 'hex'),
        ).toString('hex');
        if (recomputed !== tick.hash) {
          report({
            check: 'tick_hash_mismatch',
            detail: `${pair} tick ${tick.seq} (id ${tick.id}): hash does not match its content (price ${tick.price}, at ${tick.atMs})`,
          });
        }
        // Where retention cut the chain, what is left starts right after a checkpoint's head; a
        // tick a receipt names (pinned) may stay behind the cut as an island, proven by its own hash.
        const afterCut = endsAt.get(tick.seq - 1) === tick.prevHash;
        if (previous === undefined) {
          if (tick.seq === 1 ? tick.prevHash !== GENESIS_HASH : !afterCut && !tick.pinned) {
            report({
              check: tick.seq === 1 ? 'tick_link_broken' : 'tick_missing',
              detail:
                tick.seq === 1
                  ? `${pair} tick 1: prevHash is not the genesis hash`
                  : `${pair}: the chain starts at tick ${tick.seq}, neither after a checkpoint's head nor pinned by a receipt: ticks before it are missing`,
            });
          }
        } else if (tick.seq !== previous.seq + 1) {
          if (!(previous.pinned && (afterCut || tick.pinned))) {
            const missing = tick.seq - previous.seq - 1;
            report({
              check: 'tick_missing',
              detail: `${pair}: ${missing} tick(s) missing between ${previous.seq} and ${tick.seq}`,
            });
          }
        } else if (tick.prevHash !== previous.hash) {
          report({
            check: 'tick_link_broken',
            detail: `${pair} tick ${tick.seq}: prevHash does not equal the hash of tick ${previous.seq} (a tick was replaced or inserted)`,
          });
        }
        const late = previous && tickTimeProblem(previous, tick);
        if (late) report({ check: 'tick_time_not_rising', detail: `${pair} ${late}` });
        const head = endsAt.get(tick.seq);
        if (head !== undefined && head !== tick.hash) {
          report({
            check: 'checkpoint_mismatch',
            detail: `${pair} tick ${tick.seq}: hash differs from the head signed by its checkpoint`,
          });
        }
        const start = startsAt.get(tick.seq);
        if (start !== undefined && start !== tick.prevHash) {
          report({
            check: 'checkpoint_mismatch',
            detail: `${pair} tick ${tick.seq}: prevHash differs from the start signed by its checkpoint`,
          });
        }
        previous = { seq: tick.seq, hash: tick.hash, pinned: tick.pinned, atMs: tick.atMs };
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1]!.seq;
    }
    if (firstAtMs !== undefined && lastAtMs !== undefined) {
      const { rows } = await sql<{ id: number; at_ms: number }>`
        select id, at_ms from market_ticks
        where pair = ${pair} and seq is null and at_ms between ${firstAtMs} and ${lastAtMs}
        order by at_ms limit ${LISTED_MAX}`.execute(db);
      for (const row of rows) {
        report({
          check: 'tick_unchained_inside_chain',
          detail: `${pair}: tick id ${row.id} at ${row.at_ms} is inside the chain's time span but not in the chain (inserted)`,
        });
      }
    }
  }
  return { pairs: pairs.length, ticks, checkpoints, violations, truncated };
}
