import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { writeFeedReports, type FeedReport } from './feed-status.repository';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 2 });
});
afterAll(async () => {
  await database?.drop();
});

const report = (over: Partial<FeedReport>): FeedReport => ({
  pair: 'STATUSA',
  role: 'primary',
  provider: 'OTC',
  sourceSymbol: null,
  lastTickAtMs: null,
  ticksPerSec: 0,
  reconnects: 0,
  gaps: 0,
  malformed: 0,
  lastError: null,
  divergenceBps: null,
  ...over,
});

const rows = () =>
  database.db.selectFrom('market_feed_status').selectAll().orderBy('pair').orderBy('role').execute();

describe('writeFeedReports', () => {
  it('writes every field, nulls as nulls, updates a feed in place and removes feeds no longer reported', async () => {
    const binance = report({
      pair: 'STATUSB',
      provider: 'BINANCE',
      sourceSymbol: 'BTC/USDT',
      lastTickAtMs: 1_764_300_000_123,
      ticksPerSec: 9.5,
      reconnects: 2,
      gaps: 1,
      malformed: 3,
      lastError: 'socket hang up "ws"',
      divergenceBps: 1.25,
    });
    const reference = report({
      pair: 'STATUSB',
      role: 'reference',
      provider: 'COINBASE',
      sourceSymbol: 'BTC-USD',
    });
    await writeFeedReports(database.db, [report({}), binance, reference], 1000);
    expect(await rows()).toEqual([
      {
        pair: 'STATUSA',
        role: 'primary',
        provider: 'OTC',
        source_symbol: null,
        last_tick_at_ms: null,
        ticks_per_sec: 0,
        reconnects: 0,
        gaps: 0,
        malformed: 0,
        last_error: null,
        divergence_bps: null,
        updated_at_ms: 1000,
      },
      {
        pair: 'STATUSB',
        role: 'primary',
        provider: 'BINANCE',
        source_symbol: 'BTC/USDT',
        last_tick_at_ms: 1_764_300_000_123,
        ticks_per_sec: 9.5,
        reconnects: 2,
        gaps: 1,
        malformed: 3,
        last_error: 'socket hang up "ws"',
        divergence_bps: 1.25,
        updated_at_ms: 1000,
      },
      expect.objectContaining({
        pair: 'STATUSB',
        role: 'reference',
        provider: 'COINBASE',
        source_symbol: 'BTC-USD',
      }),
    ]);

    // The reference is dropped and the primary reconnects: one row left, updated in place.
    await writeFeedReports(database.db, [{ ...binance, reconnects: 3, lastError: null }], 2000);
    expect(await rows()).toEqual([
      expect.objectContaining({
        pair: 'STATUSB',
        role: 'primary',
        reconnects: 3,
        last_error: null,
        updated_at_ms: 2000,
      }),
    ]);
  });
});
