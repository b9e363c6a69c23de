import type { Kysely, Selectable, Transaction } from 'kysely';
import {
  nullableNumberArray,
  nullableTextArray,
  numberArray,
  preparedStatement,
  textArray,
  type Database,
} from '@updown/runtime';
import type { AdminPairFeed, FeedHealth } from '@updown/schemas/api';
import { listPairs } from '../queries/pairs.repository';
import { isStale } from './feed-status.domain';

type Db = Kysely<Database> | Transaction<Database>;

/** One feed's report, as price-ingest writes it every second. */
export interface FeedReport {
  readonly pair: string;
  readonly role: 'primary' | 'reference';
  readonly provider: string;
  readonly sourceSymbol: string | null;
  readonly lastTickAtMs: number | null;
  readonly ticksPerSec: number;
  readonly reconnects: number;
  readonly gaps: number;
  readonly malformed: number;
  readonly lastError: string | null;
  readonly divergenceBps: number | null;
}

/**
 * Writes the reports in one statement and deletes the rows of feeds no longer reported (a pair
 * removed, a reference dropped), so the table is exactly what price-ingest serves now.
 */
export async function writeFeedReports(db: Db, reports: readonly FeedReport[], nowMs: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (reports.length > 0) {
      await upsertFeedStatus(
        trx,
        textArray(reports, (r) => r.pair),
        textArray(reports, (r) => r.role),
        textArray(reports, (r) => r.provider),
        nullableTextArray(reports, (r) => r.sourceSymbol),
        nullableNumberArray(reports, (r) => r.lastTickAtMs),
        numberArray(reports, (r) => r.ticksPerSec),
        numberArray(reports, (r) => r.reconnects),
        numberArray(reports, (r) => r.gaps),
        numberArray(reports, (r) => r.malformed),
        nullableTextArray(reports, (r) => r.lastError),
        nullableNumberArray(reports, (r) => r.divergenceBps),
        nowMs,
      );
    }
    await deleteFeedStatusBefore(trx, nowMs);
  });
}

// Written every report interval even with no one watching: fixed texts, each column one array
// literal (see the runtime's db/array-literals.ts), so no query is built per report.
const upsertFeedStatus = preparedStatement<
  never,
  [string, string, string, string, string, string, string, string, string, string, string, number]
>(
  `insert into market_feed_status (pair, role, provider, source_symbol, last_tick_at_ms, ticks_per_sec,
     reconnects, gaps, malformed, last_error, divergence_bps, updated_at_ms)
   select r.*, $12::bigint
   from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::float8[], $7::int[],
               $8::int[], $9::int[], $10::text[], $11::float8[]) as r
   on conflict (pair, role) do update set
     provider = excluded.provider, source_symbol = excluded.source_symbol,
     last_tick_at_ms = excluded.last_tick_at_ms, ticks_per_sec = excluded.ticks_per_sec,
     reconnects = excluded.reconnects, gaps = excluded.gaps, malformed = excluded.malformed,
     last_error = excluded.last_error, divergence_bps = excluded.divergence_bps,
     updated_at_ms = excluded.updated_at_ms`,
);

const deleteFeedStatusBefore = preparedStatement<never, [number]>(
  'delete from market_feed_status where updated_at_ms < $1',
);

export const FEED_REPORT_AGE_MS_MAX = 10_000;

type StatusRow = Selectable<Database['market_feed_status']>;

function health(
  row: StatusRow | undefined,
  provider: string,
  sourceSymbol: string | null,
  nowMs: number,
): FeedHealth {
  const reporting =
    row !== undefined && row.provider === provider && nowMs - row.updated_at_ms <= FEED_REPORT_AGE_MS_MAX;
  if (!reporting) {
    return {
      provider,
      source_symbol: sourceSymbol,
      state: 'down',
      last_tick_age_ms: null,
      ticks_per_sec: 0,
      reconnects: 0,
      gaps: 0,
      malformed: 0,
      last_error: null,
    };
  }
  const lastTickAtMs = row.last_tick_at_ms;
  return {
    provider,
    source_symbol: sourceSymbol,
    state: isStale(lastTickAtMs, nowMs) ? 'stale' : 'live',
    last_tick_age_ms: lastTickAtMs === null ? null : Math.max(0, nowMs - lastTickAtMs),
    ticks_per_sec: row.ticks_per_sec,
    reconnects: row.reconnects,
    gaps: row.gaps,
    malformed: row.malformed,
    last_error: row.last_error,
  };
}

/** The admin Feeds view: every pair with the health of its feed and of its reference. */
export async function listPairFeeds(db: Db, limit: number, nowMs: number): Promise<AdminPairFeed[]> {
  const [pairs, statuses] = await Promise.all([
    listPairs(db, limit, nowMs),
    db.selectFrom('market_feed_status').selectAll().execute(),
  ]);
  const byKey = new Map(statuses.map((row) => [`${row.pair}|${row.role}`, row]));
  return pairs.map((pair) => {
    const primaryRow = byKey.get(`${pair.symbol}|primary`);
    return {
      pair: pair.symbol,
      active: pair.active,
      feed_status: pair.feed_status,
      divergence_bps: pair.reference_provider !== null ? (primaryRow?.divergence_bps ?? null) : null,
      spread_bps: pair.reference_spread_bps,
      primary: health(primaryRow, pair.provider, pair.provider_symbol, nowMs),
      reference:
        pair.reference_provider === null
          ? null
          : health(
              byKey.get(`${pair.symbol}|reference`),
              pair.reference_provider,
              pair.reference_symbol,
              nowMs,
            ),
    };
  });
}
