import type { MigrationSet } from '@updown/runtime';
import * as market from './0010_market';
import * as candleVolume from './0011_candle_volume';
import * as timeUnits from './0012_time_units';
import * as tickChain from './0013_tick_chain';
import * as feeds from './0014_feeds';

/** Market data: pairs and their feeds, ticks (hash-chained per pair), reference ticks, feed health, signed checkpoints and candles. */
export const priceIngestMigrations: MigrationSet = {
  owner: 'price-ingest',
  migrations: {
    '0010_market': market,
    '0011_candle_volume': candleVolume,
    '0012_time_units': timeUnits,
    '0013_tick_chain': tickChain,
    '0014_feeds': feeds,
  },
};
