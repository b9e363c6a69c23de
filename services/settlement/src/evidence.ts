import type { Kysely } from 'kysely';
import { findTradePriceRefs } from '@updown/order';
import { ticksAround } from '@updown/price-ingest';
import type { Database } from '@updown/runtime';
import type { ReferenceCheck } from '@updown/schemas/api';
import { EXIT_TICK_AGE_MS_MAX } from './settlement.domain';

/**
 * What a trader (or an admin answering a dispute) needs to check a result: the stored tick the
 * trade entered on, the one it settled on, and the stored ticks around both moments.
 */

/** A tick as the evidence API shows it (`ts` is the API's name: Unix epoch milliseconds). */
export interface TickRef {
  /** The stored tick's id; null when the entry price was taken before its tick was stored. */
  readonly id: number | null;
  readonly ts: number;
  readonly price: number;
}

export interface SettlementEvidence {
  readonly entry_tick: TickRef | null;
  readonly exit_tick: TickRef | null;
  readonly entry_window: TickRef[];
  readonly exit_window: TickRef[];
  /** The cross-check against the pair's reference feed, as settlement recorded it; null without one. */
  readonly reference_check: ReferenceCheck | null;
}

/** The window around entry and expiry: the 10 s that decide a void, and 5 s after. */
export const EVIDENCE_BEFORE_MS = EXIT_TICK_AGE_MS_MAX;
export const EVIDENCE_AFTER_MS = 5_000;
/** Most ticks per window; a faster feed keeps the ticks closest to the moment. */
export const EVIDENCE_TICKS_MAX = 200;

const EMPTY: SettlementEvidence = {
  entry_tick: null,
  exit_tick: null,
  entry_window: [],
  exit_window: [],
  reference_check: null,
};

/**
 * Evidence for one trade; empty for an unknown id. The entry window is centred on the instant the
 * trade was accepted (its entry tick is the latest stored before that), the exit window on expiry.
 */
export async function loadSettlementEvidence(
  db: Kysely<Database>,
  tradeId: string,
): Promise<SettlementEvidence> {
  const trade = await findTradePriceRefs(db, tradeId);
  if (!trade) return EMPTY;
  const [entryWindow, exitWindow] = await Promise.all([
    tickWindow(db, trade.pair, trade.accepted_at_ms),
    tickWindow(db, trade.pair, trade.expiry_at_ms),
  ]);
  const storedEntry =
    trade.entry_tick_id === null
      ? entryWindow.find((t) => t.ts === trade.entry_at_ms && t.price === trade.entry_price)
      : undefined;
  return {
    entry_tick: {
      id: trade.entry_tick_id ?? storedEntry?.id ?? null,
      ts: trade.entry_at_ms,
      price: trade.entry_price,
    },
    exit_tick:
      trade.exit_tick_id === null || trade.exit_at_ms === null || trade.exit_price === null
        ? null
        : { id: trade.exit_tick_id, ts: trade.exit_at_ms, price: trade.exit_price },
    entry_window: entryWindow,
    exit_window: exitWindow,
    // Written by settlement from `referenceCheckRecord` (settle-batch.ts), in the API's shape.
    reference_check: (trade.reference_check as ReferenceCheck | null) ?? null,
  };
}

/** Stored ticks of `pair` from `atMs - 10 s` to `atMs + 5 s`, closest first when capped, returned in time order. */
async function tickWindow(db: Kysely<Database>, pair: string, atMs: number): Promise<TickRef[]> {
  const ticks = await ticksAround(db, pair, atMs, {
    beforeMs: EVIDENCE_BEFORE_MS,
    afterMs: EVIDENCE_AFTER_MS,
    limit: EVIDENCE_TICKS_MAX,
  });
  return ticks.map((tick) => ({ id: tick.id, ts: tick.atMs, price: tick.price }));
}
