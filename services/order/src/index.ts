// The tables' kysely types: importing the entry point adds them to the runtime's `Database`.
export type * from './db/tables';
export { orderMigrations } from './db/migrations/index';
export * from './trades/place-trade.domain';
export {
  createPlaceTrade,
  type PlaceTradeDeps,
  type PlaceTradeRequest,
  type PlaceTradeResult,
  type PriceSource,
} from './trades/place-trade.handler';
export type { TradeRow } from './trades/trades.repository';
export {
  loadRealTradesSharingExpiry,
  type ExpiryGroupKey,
  type SameExpiryTrade,
} from './trades/turnover.repository';
export {
  createHttpOrderPort,
  ORDER_CALL_TIMEOUT_MS_DEFAULT,
  type HttpOrderPort,
  type HttpOrderPortOptions,
} from './http/order-client';
export { expirySeconds, publicTrade } from './http/public-trade';
export { serialiseTrade } from './http/trade-serialiser';
export type { PlacementAnswer } from './http/place-trade.wire';
export { OrderServiceUnavailable } from './order-unavailable';
export { buildOrderApp, type OrderAppDeps } from './http/order-app';
export {
  DEV_SERVICE_TOKEN,
  loadOrderConfig,
  serviceToken,
  serviceTokenProblems,
  serviceTokenSpec,
  type OrderConfig,
} from './config';

import type { PlaceTradeRequest, PlaceTradeResult } from './trades/place-trade.handler';
import type { PlacementAnswer } from './http/place-trade.wire';

/**
 * How the gateway reaches the order service: in the single process a function call, across
 * processes an HTTP client with the same signature.
 */
export interface OrderPort {
  placeTrade(request: PlaceTradeRequest): Promise<PlaceTradeResult>;
  /**
   * Across processes: the order service's answer as the public route's own body where it could
   * render it, for the gateway to send on without decoding and encoding it again.
   */
  forwardPlacement?(request: PlaceTradeRequest): Promise<PlacementAnswer>;
}

export {
  findTrade,
  tradePairs,
  findTradePriceRefs,
  listActiveTrades,
  listTradeHistory,
  openExposure,
  settledRealTradeStats,
  type OpenExposureRow,
  type SettledTradeStats,
  type TradePriceRefs,
} from './trades/trade-queries.repository';
export {
  loadPendingPage,
  lockDueTrades,
  markSettled,
  overduePendingPairs,
  findSettledTrades,
  countSettledAfter,
  readSettledAfter,
  type DueTradeRow,
  type PendingTradeRef,
  type SettledTradeRow,
  type SettledUpdate,
  type TradeDirection,
  type TradeOutcome,
} from './trades/settlement-path.repository';
export { openedTradesSource, ORDER_PRODUCER } from './trades/opened-events';
export {
  breakerWindowStart,
  effectiveCap,
  EMPTY_BOOK,
  exposureCents,
  ExposureCapReached,
  minuteOf,
  offeredPayoutPct,
  OpenStakeCapReached,
  OpenTradesCapReached,
  opposite,
  PairSuspended,
  PayoutChanged,
  potentialProfitCents,
  type PairBook,
  type PairRisk,
  type PairRiskSettings,
  type SideBook,
  type TraderRisk,
} from './risk/risk.domain';
export {
  bookDrift,
  bookOf,
  DEFAULT_PAIR_RISK,
  listPairRisks,
  pairRiskOf,
  pnlSince,
  readTraderDefaults,
  recountBooks,
  settingsOf,
  settleIntoBooks,
  traderLimitsOf,
  windowPnl,
  type RiskPairRow,
  type SettledRealTrade,
  type Suspension,
} from './risk/risk.repository';
export {
  checkResumable,
  checkTraderCaps,
  InvalidRiskSettings,
  PairNotSuspended,
  type TraderCaps,
} from './risk/risk-settings.domain';
export {
  changePairRiskSettings,
  changeTraderCaps,
  changeTraderDefaults,
  resumePairTrading,
  type PairRiskChange,
  type TraderCapsChange,
} from './risk/risk-settings.handler';
export { withRiskQuotes, type PairQuote } from './risk/risk.queries';
export { deletePair } from './pairs/delete-pair.handler';
export {
  AFTER_MOVE_PCT_FLOOR,
  LARGE_MOVE_BPS,
  MOVE_LOOKBACK_MS,
  TOXICITY_TRADES_MAX,
  TOXICITY_WINDOW_DAYS,
  toxicityOf,
  type ScoredTrade,
  type Toxicity,
} from './risk/toxicity.domain';
export {
  listTopToxicity,
  refreshToxicityScores,
  toxicityByUser,
  type ToxicityRow,
} from './risk/toxicity.repository';
export { startToxicityScoring, TOXICITY_INTERVAL_MS_DEFAULT, type ToxicityJob } from './risk/toxicity-job';
export {
  changePairActive,
  changePairFeed,
  createPair,
  removePair,
  type AdminDeps,
} from './pairs/pair-admin.handler';
export { changeSettings } from './pairs/platform-settings.handler';
export {
  resumeRealTrading,
  setPairRisk,
  setTraderDefaults,
  setTraderLimits,
  type AdminRiskContext,
  type PairRiskState,
} from './risk/risk-admin.handler';
export {
  defaultsView,
  limitsView,
  pairRiskView,
  settingsView,
  toxicityView,
  utcDayStart,
} from './risk/risk.view';
