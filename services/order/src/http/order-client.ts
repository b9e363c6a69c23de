import { DomainError } from '@updown/runtime';
import type { OrderPort } from '../index';
import { OrderServiceUnavailable } from '../order-unavailable';
import type { PlaceTradeRequest, PlaceTradeResult } from '../trades/place-trade.handler';
import {
  DOMAIN_REFUSAL_STATUS,
  PLACE_TRADE_PATH,
  tradeRowFromJson,
  type PlaceTradeCommand,
  type PlaceTradeReply,
} from './place-trade.wire';

export interface HttpOrderPortOptions {
  /** Base URL of the order service, e.g. `http://order:8083`. */
  readonly url: string;
  readonly serviceToken: string;
  /** Longest wait for one placement; the gateway answers 503 after it. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

export const ORDER_CALL_TIMEOUT_MS_DEFAULT = 5_000;

/**
 * The gateway's side of the seam when the order service runs in its own process: the same
 * `OrderPort` the single process satisfies with a function call. A refusal comes back as the same
 * `DomainError` code, so the gateway's one error table gives the trader the same status and text
 * either way. No automatic retry: a placement is only safe to repeat under an idempotency key,
 * which is the trader's to send.
 */
export function createHttpOrderPort(options: HttpOrderPortOptions): OrderPort {
  const endpoint = new URL(PLACE_TRADE_PATH, options.url).toString();
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? ORDER_CALL_TIMEOUT_MS_DEFAULT;
  return {
    async placeTrade(request: PlaceTradeRequest): Promise<PlaceTradeResult> {
      const command: PlaceTradeCommand = {
        user_id: request.userId,
        pair: request.pair,
        direction: request.direction,
        amount_cents: request.amountCents,
        duration_sec: request.durationSec,
        account_type: request.accountType,
        ...(request.idempotencyKey === undefined ? {} : { idempotency_key: request.idempotencyKey }),
        ...(request.expectedPayoutPct === undefined
          ? {}
          : { expected_payout_pct: request.expectedPayoutPct }),
      };
      let response: Response;
      try {
        response = await doFetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${options.serviceToken}` },
          body: JSON.stringify(command),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw Object.assign(new OrderServiceUnavailable(), { cause: error });
      }
      if (response.ok) {
        const reply = (await response.json()) as PlaceTradeReply;
        return { trade: tradeRowFromJson(reply.trade), replayed: reply.replayed };
      }
      const body = (await response.json().catch(() => ({}))) as { detail?: string; code?: string };
      if (
        (response.status === DOMAIN_REFUSAL_STATUS || response.status === 400) &&
        body.code &&
        body.detail
      ) {
        throw new DomainError(body.code, body.detail);
      }
      throw Object.assign(new OrderServiceUnavailable(), {
        cause: new Error(`order service answered ${response.status}: ${body.detail ?? ''}`),
      });
    },
  };
}
