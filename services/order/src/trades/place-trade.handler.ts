import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createEvent } from '@updown/schemas';
import { Counter, enqueueEvent, type Clock, type Database, type Registry } from '@updown/runtime';
import { IdempotencyConflict, transfer, type Posting } from '@updown/wallet';
import { decidePlacement, type AccountType, type Direction } from './place-trade.domain';
import {
  findTradeByIdempotencyKey,
  insertTrade,
  loadPlacementContext,
  lockStakeBalances,
  type TradeRow,
} from './trades.repository';

/** What the order service needs to know the price now; price-ingest's `LatestPrices` satisfies it. */
export interface PriceSource {
  get(pair: string): { price: number; ts: number } | undefined;
}

export interface PlaceTradeRequest {
  readonly userId: string;
  readonly pair: string;
  readonly direction: Direction;
  readonly amountCents: number;
  readonly durationSec: number;
  readonly accountType: AccountType;
  /** From the `Idempotency-Key` header: a retry with the same key returns the first trade. */
  readonly idempotencyKey?: string;
}

export interface PlaceTradeResult {
  readonly trade: TradeRow;
  /** True when this is the answer to an earlier request with the same idempotency key. */
  readonly replayed: boolean;
}

export interface PlaceTradeDeps {
  readonly db: Kysely<Database>;
  readonly prices: PriceSource;
  readonly clock: Clock;
  /** Called after a placement commits, so the outbox relay publishes at once instead of at its next poll. */
  readonly onCommitted?: () => void;
  readonly producer?: string;
  /** Where `updown_trades_placed_total{pair, account}` is registered; omitted in tests that do not look. */
  readonly registry?: Registry;
}

/**
 * Places a trade in one database transaction: lock the user's stake accounts, decide, hold the
 * stake in the ledger, insert the pending trade and write `trades.opened.v1` to the outbox.
 * A refusal writes nothing. Repeats with the same idempotency key return the first trade.
 */
export function createPlaceTrade(
  deps: PlaceTradeDeps,
): (request: PlaceTradeRequest) => Promise<PlaceTradeResult> {
  const producer = deps.producer ?? 'order';
  const placed = deps.registry
    ? new Counter({
        name: 'updown_trades_placed_total',
        help: 'Trades accepted by the order service',
        labelNames: ['pair', 'account'] as const,
        registers: [deps.registry],
      })
    : undefined;
  return async (request) => {
    const result = await retryOnLockConflict(() =>
      deps.db.transaction().execute(async (trx) => {
        const balances = await lockStakeBalances(trx, request.userId);
        // Checked under the lock: a concurrent retry with the same key has committed or not by now.
        if (request.idempotencyKey) {
          const existing = await findTradeByIdempotencyKey(trx, request.userId, request.idempotencyKey);
          if (existing) {
            if (!sameRequest(existing, request)) throw new IdempotencyConflict(request.idempotencyKey);
            return { trade: existing, replayed: true };
          }
        }
        const { pair, maxStakeCents, activeBonusCents } = await loadPlacementContext(
          trx,
          request.pair,
          request.userId,
        );
        const tick = deps.prices.get(request.pair);
        const now = deps.clock.now();
        const accepted = decidePlacement(
          {
            pair: pair && { symbol: pair.symbol, active: pair.active, payoutPct: pair.payout_pct },
            latestTick: tick && { price: tick.price, ts: tick.ts, tickId: null },
            maxStakeCents,
            balances,
            activeBonusCents,
          },
          { ...request, now },
        );
        const tradeId = randomUUID();
        await transfer(trx, {
          kind: 'trade_stake',
          idempotencyKey: `trade:${tradeId}:stake`,
          ref: { tradeId },
          occurredAt: new Date(now),
          postings: stakePostings(request.userId, accepted),
        });
        const trade = await insertTrade(trx, {
          id: tradeId,
          userId: request.userId,
          idempotencyKey: request.idempotencyKey ?? null,
          trade: accepted,
        });
        await enqueueEvent(
          trx,
          'trades.opened.v1',
          trade.pair,
          createEvent(
            'trades.opened.v1',
            {
              tradeId,
              userId: request.userId,
              pair: trade.pair,
              direction: trade.direction,
              amountCents: trade.amount_cents,
              payoutPct: trade.payout_pct,
              entryPrice: trade.entry_price,
              entryTs: trade.entry_ts,
              expiryTs: trade.expiry_ts,
              accountType: trade.account_type,
              openedAt: trade.accepted_at,
            },
            { producer, occurredAt: new Date(now).toISOString() },
          ),
        );
        return { trade, replayed: false };
      }),
    );
    if (!result.replayed) {
      placed?.inc({ pair: result.trade.pair, account: result.trade.account_type });
      deps.onCommitted?.();
    }
    return result;
  };
}

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction did nothing and may be retried. */
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);
const PLACEMENT_ATTEMPTS_MAX = 3;

/**
 * A placement locks the user's cash accounts, then their in-play accounts; settlement converting a
 * completed bonus takes some of the same rows in the other order, so on rare occasions PostgreSQL
 * breaks a deadlock by aborting the placement. Nothing was written then, so trying again is safe.
 */
export async function retryOnLockConflict<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= PLACEMENT_ATTEMPTS_MAX || typeof code !== 'string' || !RETRYABLE_SQLSTATES.has(code))
        throw error;
    }
  }
}

/**
 * A retry repeats the request it retries. Answering another body with the first trade would tell
 * the trader that a trade they never got was placed, so the key's reuse for a different trade is
 * refused instead (409 `IDEMPOTENCY_CONFLICT`, as the wallet's commands answer).
 */
function sameRequest(trade: TradeRow, request: PlaceTradeRequest): boolean {
  return (
    trade.pair === request.pair &&
    trade.direction === request.direction &&
    trade.amount_cents === request.amountCents &&
    trade.duration_sec === request.durationSec &&
    trade.account_type === request.accountType
  );
}

function stakePostings(userId: string, trade: ReturnType<typeof decidePlacement>): Posting[] {
  if (trade.accountType === 'demo') {
    return [
      { account: { owner: userId, type: 'demo' }, amount: -trade.amountCents },
      { account: { owner: userId, type: 'demo_in_play' }, amount: trade.amountCents },
    ];
  }
  const postings: Posting[] = [];
  if (trade.stakeFromCashCents > 0) {
    postings.push(
      { account: { owner: userId, type: 'real' }, amount: -trade.stakeFromCashCents },
      { account: { owner: userId, type: 'real_in_play' }, amount: trade.stakeFromCashCents },
    );
  }
  if (trade.stakeFromBonusCents > 0) {
    postings.push(
      { account: { owner: userId, type: 'bonus' }, amount: -trade.stakeFromBonusCents },
      { account: { owner: userId, type: 'bonus_in_play' }, amount: trade.stakeFromBonusCents },
    );
  }
  return postings;
}
