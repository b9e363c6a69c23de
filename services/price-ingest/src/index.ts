// The tables' kysely types: importing the entry point adds them to the runtime's `Database`.
export type * from './db/tables';
export { priceIngestMigrations } from './db/migrations/index';
export {
  DEFAULT_PRICE_FEED_SEED,
  loadPriceIngestConfig,
  priceIngestConfigSpec,
  type PriceIngestConfig,
  type PriceIngestServiceConfig,
} from './config';
export { startPriceIngest, type PriceIngestDeps, type RunningPriceIngest } from './price-ingest.service';
export {
  LATEST_PRICES_PAIRS_MAX,
  PRICE_STALE_AFTER_MS,
  startLatestPrices,
  type LatestPrice,
  type LatestPrices,
  type LatestPricesDeps,
} from './latest-prices';
export { TICKS_TOPIC, type TickEvent, type TickPublisher, type TickSubscriber } from './bus-ports';
export { TICK_WRITE_AGE_MS_MAX } from './tick-pipeline';
export { OTC_PROVIDER, OtcProvider } from './feed/otc-provider';
export type { FeedPair, PriceProvider, Tick, TickSink } from './feed/price-provider';
export {
  deletePair,
  listPairs,
  listPairSymbols,
  PAIRS_KNOWN_MAX,
  pairReferencesSql,
  pairTermsColumns,
  readPair,
  setEveryPairPayout,
  type PairRow,
} from './queries/pairs.repository';
export {
  InvalidFeed,
  InvalidPair,
  normaliseFeed,
  normaliseNewPair,
  type FeedInput,
  type NewPair,
  type NewPairInput,
  type PairFeedConfig,
} from './pairs/pair-rules.domain';
export {
  addPair,
  lockExistingPair,
  PairExists,
  PairNotFound,
  replacePairFeed,
  setPairEnabled,
  type PairChange,
} from './pairs/pairs.handler';
export { FEED_PROVIDERS } from '@updown/schemas/api';
export { listPairFeeds, writeFeedReports, type FeedReport } from './feed-health/feed-status.repository';
export {
  FEED_STALE_AFTER_MS,
  pairFeedStatus,
  pricesAgree,
  type FeedStatus,
} from './feed-health/feed-status.domain';
export { recentCandles } from './queries/candles.repository';
export {
  latestTickAtMs,
  referenceAtOrBeforeSql,
  tickAtOrBeforeSql,
  ticksAround,
  type StoredTick,
} from './queries/ticks.repository';
export {
  checkpointsAfter,
  findCheckpoint,
  listCheckpoints,
  signCheckpoints,
  type ChainTick,
  type Checkpoint,
  type SignedCheckpoint,
} from './chain/checkpoints';
export {
  chainSegment,
  chainTicksAfter,
  pinTicks,
  receiptTicks,
  type CheckpointHead,
  type ReceiptTickQuery,
  type ReceiptTicks,
  type StoredChainTick,
} from './chain/chain.repository';
export { chainHash } from './chain/tick-chain';
export { verifyTickChains, type ChainReport, type ChainViolation } from './chain/verify-chains';
