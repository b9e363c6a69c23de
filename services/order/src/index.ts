export * from './trades/place-trade.domain';
export {
  createPlaceTrade,
  type PlaceTradeDeps,
  type PlaceTradeRequest,
  type PlaceTradeResult,
  type PriceSource,
} from './trades/place-trade.handler';
export type { TradeRow } from './trades/trades.repository';

import type { PlaceTradeRequest, PlaceTradeResult } from './trades/place-trade.handler';

/**
 * How the gateway reaches the order service: in the single process a function call, across
 * processes an HTTP client with the same signature.
 */
export interface OrderPort {
  placeTrade(request: PlaceTradeRequest): Promise<PlaceTradeResult>;
}
