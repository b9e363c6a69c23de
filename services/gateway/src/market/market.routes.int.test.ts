import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsRegistry, systemClock } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { buildApp } from '../app';
import type { GatewayInstance } from '../http/instance';
import { memoryLogger } from '../testing/test-app';
import { createMarketPlugin } from './market.plugin';
import { memoryBus } from './testing';

const NEWEST_MINUTE = Date.UTC(2026, 0, 5, 12, 0) / 1000;
const STORED_MINUTES = 1_200;

let database: TestDatabase;
let bus: ReturnType<typeof memoryBus>;
let app: GatewayInstance;

beforeAll(async () => {
  database = await createTestDatabase({ max: 3 });
  const rows = Array.from({ length: STORED_MINUTES }, (_, i) => {
    const price = 95_000 + i;
    return {
      pair: 'BTCUSDT',
      timeframe_sec: 60,
      bucket_start_sec: NEWEST_MINUTE - (STORED_MINUTES - 1 - i) * 60,
      open: price,
      high: price + 5,
      low: price - 5,
      close: price + 1,
      volume: 240 + i,
    };
  });
  await database.db.insertInto('market_candles').values(rows).execute();
  await database.db
    .insertInto('market_candles')
    .values({
      pair: 'BTCUSDT',
      timeframe_sec: 300,
      bucket_start_sec: NEWEST_MINUTE,
      open: 1,
      high: 2,
      low: 0.5,
      close: 1.5,
      volume: 7,
    })
    .execute();

  const { logger } = memoryLogger('silent');
  const registry = createMetricsRegistry();
  bus = memoryBus(registry, logger);
  app = buildApp({
    config: { CONSOLE_DIR: '/nonexistent', CORS_ORIGINS: [], BODY_LIMIT_BYTES: 1024 * 1024 },
    logger,
    registry,
    db: database.db,
    readiness: async () => ({ ok: true, checks: {} }),
    plugins: [createMarketPlugin({ db: database.db, bus, logger, registry, clock: systemClock })],
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await bus?.close();
  await database?.drop();
});

describe('GET /api/market/pairs', () => {
  it('lists the six seeded pairs in display order, BTCUSDT first, with the spec fields and their feeds', async () => {
    const res = await app.inject({ url: '/api/market/pairs' });
    expect(res.statusCode).toBe(200);
    const pairs = res.json<Record<string, unknown>[]>();
    expect(pairs.map((p) => p.symbol)).toEqual(['BTCUSDT', 'EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'ETHUSD']);
    expect(pairs[0]).toEqual({
      symbol: 'BTCUSDT',
      display_name: 'BTC/USDT',
      active: true,
      payout_pct: 80,
      provider: 'OTC',
      provider_symbol: null,
      reference_provider: null,
      reference_symbol: null,
      reference_spread_bps: null,
      // No price-ingest runs here: nothing reports the feed, so it is not tradable.
      feed_status: 'paused',
      // No risk settings: both sides are offered the pair's payout, and real trading is open.
      payout_up_pct: 80,
      payout_down_pct: 80,
      real_trading: 'open',
    });
    expect(pairs.map((p) => p.display_name)).toContain('XAU/USD');
  });

  it('lists a disabled pair with active false', async () => {
    await database.db
      .updateTable('market_pairs')
      .set({ active: false })
      .where('symbol', '=', 'GBPUSD')
      .execute();
    try {
      const pairs = (await app.inject({ url: '/api/market/pairs' })).json<
        { symbol: string; active: boolean }[]
      >();
      expect(pairs).toHaveLength(6);
      expect(pairs.find((p) => p.symbol === 'GBPUSD')?.active).toBe(false);
    } finally {
      await database.db
        .updateTable('market_pairs')
        .set({ active: true })
        .where('symbol', '=', 'GBPUSD')
        .execute();
    }
  });
});

describe('GET /api/market/candles', () => {
  type Candle = { time: number; open: number; high: number; low: number; close: number; volume: number };
  const candles = async (query: string) => {
    const res = await app.inject({ url: `/api/market/candles?${query}` });
    return { status: res.statusCode, body: res.json<Candle[] & { detail?: string; code?: string }>() };
  };

  it('returns the 200 most recent candles by default, oldest first, time in Unix seconds', async () => {
    const { status, body } = await candles('pair=BTCUSDT&timeframe=1m');
    expect(status).toBe(200);
    expect(body).toHaveLength(200);
    expect(body.at(-1)).toEqual({
      time: NEWEST_MINUTE,
      open: 96_199,
      high: 96_204,
      low: 96_194,
      close: 96_200,
      volume: 240 + 1199,
    });
    expect(body[0]!.time).toBe(NEWEST_MINUTE - 199 * 60);
    expect(body.every((c, i) => i === 0 || c.time - body[i - 1]!.time === 60)).toBe(true);
    expect(Object.keys(body[0]!).sort()).toEqual(['close', 'high', 'low', 'open', 'time', 'volume']);
  });

  it('honours limit, and refuses less than 1 or more than 1000 (the document states both)', async () => {
    expect((await candles('pair=BTCUSDT&timeframe=1m&limit=3')).body.map((c) => c.time)).toEqual([
      NEWEST_MINUTE - 120,
      NEWEST_MINUTE - 60,
      NEWEST_MINUTE,
    ]);
    const tooMany = await candles('pair=BTCUSDT&timeframe=1m&limit=5000');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ detail: 'query parameter limit must be <= 1000', code: 'VALIDATION' });
    expect((await candles('pair=BTCUSDT&timeframe=1m&limit=1000')).status).toBe(200);
    const zero = await candles('pair=BTCUSDT&timeframe=1m&limit=0');
    expect(zero.status).toBe(400);
    expect(zero.body.code).toBe('VALIDATION');
  });

  it('serves each timeframe from its own candles, and a known pair without candles as an empty list', async () => {
    expect((await candles('pair=BTCUSDT&timeframe=5m')).body).toEqual([
      { time: NEWEST_MINUTE, open: 1, high: 2, low: 0.5, close: 1.5, volume: 7 },
    ]);
    expect(await candles('pair=GBPUSD&timeframe=1h')).toEqual({ status: 200, body: [] });
    expect((await candles('pair=btcusdt&timeframe=1m&limit=1')).body).toHaveLength(1);
  });

  it('answers an unknown pair or timeframe with 400 and a detail', async () => {
    expect(await candles('pair=FOO&timeframe=1m')).toEqual({
      status: 400,
      body: { detail: 'Unknown pair: FOO', code: 'VALIDATION' },
    });
    const timeframe = await candles('pair=BTCUSDT&timeframe=2m');
    expect(timeframe.status).toBe(400);
    expect(timeframe.body.detail).toBe('query parameter timeframe must be one of: 1m, 5m, 15m, 30m, 1h');
    const missing = await candles('timeframe=1m');
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe('query parameter pair is required');
  });
});
