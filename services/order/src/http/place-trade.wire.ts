import type { TradeRow } from '../trades/trades.repository';
import type { PlaceTradeResult } from '../trades/place-trade.handler';

/**
 * The internal placement call between the gateway and the order service. Money is in cents here:
 * the gateway has already converted the public API's dollars, and nothing on this seam rounds.
 */
export const PLACE_TRADE_PATH = '/internal/trades/place';

/**
 * The command as the gateway sends it. The gateway has validated the public body it came from
 * against the API schema, and the service token proves the sender is the gateway, so the order
 * service does not validate the shape again; the placement's own rules (amount, pair, duration,
 * caps) are the domain's and run either way.
 */
export interface PlaceTradeCommand {
  readonly user_id: string;
  readonly pair: string;
  readonly direction: 'UP' | 'DOWN';
  readonly amount_cents: number;
  readonly duration_sec: number;
  readonly account_type: 'demo' | 'real';
  readonly idempotency_key?: string;
  readonly expected_payout_pct?: number;
}

/**
 * Which body an answer carries: `public`, the exact body of `POST /api/trades/place` (schema
 * `Trade`, status 201 placed or 200 replayed), which the gateway sends on as it is; or `row`, a
 * `PlaceTradeReply`. The gateway asks for rows by sending this header with `row`; the order
 * service also answers rows for a replayed trade that is no longer pending, whose receipt id only
 * the gateway can name.
 */
export const TRADE_VIEW_HEADER = 'x-trade-view';
export type TradeView = 'public' | 'row';

/** A trade row as JSON: every column as stored, `created_at` as an ISO-8601 string. */
export type TradeRowJson = Omit<TradeRow, 'created_at'> & { created_at: string };

export interface PlaceTradeReply {
  readonly trade: TradeRowJson;
  readonly replayed: boolean;
}

/** What the order service answered for one forwarded placement. */
export type PlacementAnswer =
  | {
      readonly view: 'public';
      /** 201 placed, 200 replayed: the public route's own status. */
      readonly status: 200 | 201;
      /** JSON text of the public `Trade`, to be sent as it is. */
      readonly body: string;
    }
  | { readonly view: 'row'; readonly result: PlaceTradeResult };

/** Refusals travel as `{detail, code}` with this status; the gateway maps the code to its own. */
export const DOMAIN_REFUSAL_STATUS = 422;

export function tradeRowFromJson(json: TradeRowJson): TradeRow {
  return { ...json, created_at: new Date(json.created_at) };
}
