import { Type, type Static } from '@sinclair/typebox';
import type { TradeRow } from '../trades/trades.repository';

/**
 * The internal placement call between the gateway and the order service. Money is in cents here:
 * the gateway has already converted the public API's dollars, and nothing on this seam rounds.
 */
export const PLACE_TRADE_PATH = '/internal/trades/place';

export const PlaceTradeCommand = Type.Object(
  {
    user_id: Type.String({ format: 'uuid' }),
    pair: Type.String({ minLength: 1, maxLength: 20 }),
    direction: Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]),
    amount_cents: Type.Integer({ minimum: 1, maximum: 1_000_000_000_000 }),
    duration_sec: Type.Integer({ minimum: 1, maximum: 86_400 }),
    account_type: Type.Union([Type.Literal('demo'), Type.Literal('real')]),
    idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    expected_payout_pct: Type.Optional(Type.Number({ minimum: 0, maximum: 1000 })),
  },
  { additionalProperties: false },
);
export type PlaceTradeCommand = Static<typeof PlaceTradeCommand>;

/** A trade row as JSON: every column as stored, `created_at` as an ISO-8601 string. */
export type TradeRowJson = Omit<TradeRow, 'created_at'> & { created_at: string };

export interface PlaceTradeReply {
  readonly trade: TradeRowJson;
  readonly replayed: boolean;
}

/** Refusals travel as `{detail, code}` with this status; the gateway maps the code to its own. */
export const DOMAIN_REFUSAL_STATUS = 422;

export function tradeRowFromJson(json: TradeRowJson): TradeRow {
  return { ...json, created_at: new Date(json.created_at) };
}
