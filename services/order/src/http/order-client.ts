import { Pool } from 'undici';
import { DomainError } from '@updown/runtime';
import type { OrderPort } from '../index';
import { OrderServiceUnavailable } from '../order-unavailable';
import type { PlaceTradeRequest, PlaceTradeResult } from '../trades/place-trade.handler';
import {
  DOMAIN_REFUSAL_STATUS,
  PLACE_TRADE_PATH,
  TRADE_VIEW_HEADER,
  tradeRowFromJson,
  type PlaceTradeCommand,
  type PlaceTradeReply,
  type PlacementAnswer,
} from './place-trade.wire';

export interface HttpOrderPortOptions {
  /** Base URL of the order service, e.g. `http://order:8083`. */
  readonly url: string;
  readonly serviceToken: string;
  /**
   * Longest wait for the order service to connect, and then for its answer to start, and then
   * between two pieces of it; the gateway answers 503 after any of them.
   */
  readonly timeoutMs?: number;
  /** Keep-alive connections held open to the order service. */
  readonly connectionsMax?: number;
  /** Placements waiting for a connection beyond which one is refused with 503 at once. */
  readonly queuedMax?: number;
}

export const ORDER_CALL_TIMEOUT_MS_DEFAULT = 5_000;
export const ORDER_CONNECTIONS_MAX_DEFAULT = 32;
export const ORDER_QUEUED_MAX_DEFAULT = 1_024;

/** The HTTP side of `OrderPort`, with the forwarding call the gateway's place route uses. */
export interface HttpOrderPort extends OrderPort {
  forwardPlacement(request: PlaceTradeRequest): Promise<PlacementAnswer>;
  /** Closes the pooled connections once the calls in flight have finished. */
  close(): Promise<void>;
}

interface Answer {
  readonly status: number;
  readonly view: string | string[] | undefined;
  readonly text: string;
}

function commandJson(request: PlaceTradeRequest): string {
  const command: PlaceTradeCommand = {
    user_id: request.userId,
    pair: request.pair,
    direction: request.direction,
    amount_cents: request.amountCents,
    duration_sec: request.durationSec,
    account_type: request.accountType,
    // JSON.stringify leaves out a field whose value is undefined.
    idempotency_key: request.idempotencyKey,
    expected_payout_pct: request.expectedPayoutPct,
  };
  return JSON.stringify(command);
}

function unavailable(cause: unknown): OrderServiceUnavailable {
  return Object.assign(new OrderServiceUnavailable(), { cause });
}

/** A refusal keeps its code and text; any other failure is the order service being unavailable. */
function refusal(answer: Answer): Error {
  let body: { detail?: unknown; code?: unknown } = {};
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    // Not JSON (a proxy's page, a cut-off body): reported below with its status.
  }
  if (
    (answer.status === DOMAIN_REFUSAL_STATUS || answer.status === 400) &&
    typeof body.code === 'string' &&
    typeof body.detail === 'string' &&
    body.code !== '' &&
    body.detail !== ''
  ) {
    return new DomainError(body.code, body.detail);
  }
  const detail = typeof body.detail === 'string' ? body.detail : '';
  return unavailable(new Error(`order service answered ${answer.status}: ${detail}`));
}

function rowResult(answer: Answer): PlaceTradeResult {
  try {
    const reply = JSON.parse(answer.text) as PlaceTradeReply;
    return { trade: tradeRowFromJson(reply.trade), replayed: reply.replayed };
  } catch (error) {
    throw unavailable(error);
  }
}

/**
 * The gateway's side of the seam when the order service runs in its own process: the same
 * `OrderPort` the single process satisfies with a function call. Calls go over a pool of
 * keep-alive connections (no connection set up per placement), and the pool's own timers bound
 * each wait instead of a timer per call. A refusal comes back as the same `DomainError` code, so
 * the gateway's one error table gives the trader the same status and text either way. No
 * automatic retry: a placement is only safe to repeat under an idempotency key, which is the
 * trader's to send.
 */
export function createHttpOrderPort(options: HttpOrderPortOptions): HttpOrderPort {
  const timeoutMs = options.timeoutMs ?? ORDER_CALL_TIMEOUT_MS_DEFAULT;
  const connectionsMax = options.connectionsMax ?? ORDER_CONNECTIONS_MAX_DEFAULT;
  const callsMax = connectionsMax + (options.queuedMax ?? ORDER_QUEUED_MAX_DEFAULT);
  const pool = new Pool(new URL(options.url).origin, {
    connections: connectionsMax,
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  // Built once: every call sends the same headers but for the row form's one extra.
  const authorization = `Bearer ${options.serviceToken}`;
  const publicHeaders = { 'content-type': 'application/json', authorization };
  const rowHeaders = { ...publicHeaders, [TRADE_VIEW_HEADER]: 'row' };
  // The pool queues calls beyond its connections without a timer; this bounds that queue.
  let calls = 0;

  async function call(request: PlaceTradeRequest, headers: Record<string, string>): Promise<Answer> {
    if (calls >= callsMax) throw unavailable(new Error(`${calls} calls to the order service in flight`));
    calls += 1;
    try {
      const response = await pool.request({
        path: PLACE_TRADE_PATH,
        method: 'POST',
        headers,
        body: commandJson(request),
      });
      // The whole body is read whatever the status, so the connection goes back to the pool.
      const text = await response.body.text();
      return { status: response.statusCode, view: response.headers[TRADE_VIEW_HEADER], text };
    } catch (error) {
      throw unavailable(error);
    } finally {
      calls -= 1;
    }
  }

  return {
    async forwardPlacement(request) {
      const answer = await call(request, publicHeaders);
      if (answer.status === 200 || answer.status === 201) {
        if (answer.view === 'public') return { view: 'public', status: answer.status, body: answer.text };
        return { view: 'row', result: rowResult(answer) };
      }
      throw refusal(answer);
    },
    async placeTrade(request) {
      const answer = await call(request, rowHeaders);
      if (answer.status === 200 || answer.status === 201) return rowResult(answer);
      throw refusal(answer);
    },
    close: () => pool.close(),
  };
}
