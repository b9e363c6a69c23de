import { randomUUID } from 'node:crypto';
import { DomainError } from '@updown/runtime/errors';
import type { Kysely } from 'kysely';
import {
  Counter,
  Histogram,
  poolOf,
  runPgTransaction,
  together,
  type Clock,
  type Database,
  type Registry,
  type SqlTransaction,
} from '@updown/runtime';
import { IdempotencyConflict, lockStakeAccounts, planStakeHolds, postStakeHolds } from '@updown/wallet';
import {
  decideBatch,
  idempotencyScope,
  type BatchState,
  type LatestTick,
  type PairTerms,
  type PlacementTerms,
} from './place-batch.domain';
import type { AcceptedTrade, AccountType, Direction, TickReference } from './place-trade.domain';
import { OrderServiceUnavailable } from '../order-unavailable';
import { addToPlacedBooks, lockExistingPairRisks, lockPairRisks, pairRiskOf } from '../risk/risk.repository';
import type { PairRisk } from '../risk/risk.domain';
import { createBatcher, type BatchMarks, type Settled } from './placement-batcher';
import { PlacementPhases } from './placement-phases';
import {
  findTradesByIdempotencyKeys,
  insertTrades,
  loadPlacementContext,
  type TradeRow,
} from './trades.repository';

/** What the order service needs to know the price now; price-ingest's `LatestPrices` satisfies it. */
export interface PriceSource {
  get(pair: string): { price: number; atMs: number; reference?: TickReference } | undefined;
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
  /** The payout the trader was shown for the direction: less now is refused with `PAYOUT_CHANGED`. */
  readonly expectedPayoutPct?: number;
}

export interface PlaceTradeResult {
  readonly trade: TradeRow;
  /** True when this is the answer to an earlier request with the same idempotency key. */
  readonly replayed: boolean;
}

/** Most placements committed in one transaction unless `batchMax` says otherwise. */
export const PLACEMENT_BATCH_MAX_DEFAULT = 200;

/**
 * Most placements waiting for a batch unless `queueMax` says otherwise: ten full batches, under a
 * second of work at the closed-loop capacity `bench/README.md` measures. Beyond it a placement is
 * refused at once with 503 `ORDER_UNAVAILABLE`, which a trader may retry with the same key.
 */
export const PLACEMENT_QUEUE_MAX_DEFAULT = 2_000;

export interface PlaceTradeDeps {
  readonly db: Kysely<Database>;
  readonly prices: PriceSource;
  readonly clock: Clock;
  /** Called after a batch with new trades commits, so the outbox relay publishes at once instead of at its next poll. */
  readonly onCommitted?: () => void;
  /**
   * Where `updown_trades_placed_total{pair, account}`, `updown_placement_batch_size`,
   * `updown_placement_batch_fallbacks_total`, `updown_placement_queue_full_total` and the phases
   * (`placement-phases.ts`) are registered; omitted in tests that do not look.
   */
  readonly registry?: Registry;
  /** Most placements in one transaction (default `PLACEMENT_BATCH_MAX_DEFAULT`). */
  readonly batchMax?: number;
  /** Most placements waiting for a batch (default `PLACEMENT_QUEUE_MAX_DEFAULT`). */
  readonly queueMax?: number;
}

/**
 * Places trades, many per database transaction (group commit, `placement-batcher.ts`): whatever
 * arrived while the previous batch was committing is decided and written together, and a placement
 * that arrives alone goes at once. Each batch, in one transaction and a constant number of
 * statements: lock the stake accounts of all its users (all six each), look up its idempotency
 * keys, read its pairs, stake terms and trader caps, lock its pairs' risk books (after the
 * accounts, the wallet's protocol; placement never waits for a row while holding one another
 * money command wants first), decide every placement in arrival order against the running
 * balances and books (`place-batch.domain.ts`), hold the accepted stakes through the wallet,
 * insert the pending trades, whose rows are the outbox of their `trades.opened.v1`
 * (`openedTradesSource`), and add the real ones to the books. Each placement gets its own answer,
 * exactly the one it would get alone after the ones before it: a refusal writes nothing and
 * touches no other answer, a repeated key returns the first trade.
 */
export function createPlaceTrade(
  deps: PlaceTradeDeps,
): (request: PlaceTradeRequest) => Promise<PlaceTradeResult> {
  const metrics = placementMetrics(deps.registry);
  let phases: PlacementPhases | undefined;
  if (deps.registry) {
    phases = new PlacementPhases();
    phases.register(deps.registry);
  }
  return createBatcher<PlaceTradeRequest, PlaceTradeResult>({
    batchMax: deps.batchMax ?? PLACEMENT_BATCH_MAX_DEFAULT,
    queueMax: deps.queueMax ?? PLACEMENT_QUEUE_MAX_DEFAULT,
    queueFull: () => {
      metrics.queueFull?.inc();
      return new OrderServiceUnavailable();
    },
    run: async (requests, marks) => {
      const outcomes = await placeBatch(deps, requests, marks);
      let placed = 0;
      outcomes.forEach((outcome, i) => {
        if (!outcome.ok && outcome.error instanceof DomainError && RISK_REFUSALS.has(outcome.error.code)) {
          metrics.riskRefusals?.inc({
            pair: requests[i]!.pair,
            reason: RISK_REFUSALS.get(outcome.error.code)!,
          });
        }
      });
      for (const outcome of outcomes) {
        if (!outcome.ok || outcome.value.replayed) continue;
        placed++;
        metrics.placed?.inc({ pair: outcome.value.trade.pair, account: outcome.value.trade.account_type });
      }
      if (placed > 0) deps.onCommitted?.();
      return outcomes;
    },
    outcomeUnknown: (error) => error instanceof CommitFailed,
    onBatch: (size) => metrics.batchSize?.observe(size),
    onFallback: () => metrics.fallbacks?.inc(),
    ...(phases ? { onPhases: phases.listener } : {}),
  });
}

/** The refusals of the risk controls, by code, as `updown_risk_refusals_total`'s `reason`. */
const RISK_REFUSALS = new Map([
  ['EXPOSURE_CAP_REACHED', 'exposure_cap'],
  ['OPEN_STAKE_CAP_REACHED', 'trader_stake_cap'],
  ['OPEN_TRADES_CAP_REACHED', 'trader_trades_cap'],
  ['PAYOUT_CHANGED', 'payout_changed'],
  ['PAIR_SUSPENDED', 'suspended'],
]);

/** The commit of a batch failed: it may or may not have been written, so it is not run again. */
export class CommitFailed extends Error {
  constructor(cause: unknown) {
    super(`placement batch commit failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'CommitFailed';
  }
}

/**
 * One batch, one transaction. On the engine's own database (`createDb`) it is held on a pooled pg
 * client directly (`runPgTransaction`): `begin` and `commit` go as plain texts and every
 * statement of the batch, each of fixed text, straight to the client, so no kysely transaction,
 * connection wrapper, compiled query or plugin pass is made per batch or statement. Any other
 * `Kysely` (a test's with a logger or plugins) gets kysely's transaction and runs the same
 * statements through it.
 */
async function placeBatch(
  deps: PlaceTradeDeps,
  requests: readonly PlaceTradeRequest[],
  marks: BatchMarks,
): Promise<Settled<PlaceTradeResult>[]> {
  let decided = false;
  const work = async (trx: SqlTransaction) => {
    const decisions = await placeInTransaction(trx, deps, requests);
    decided = true;
    // The commit is sent as soon as this returns.
    marks.commitSentMs = performance.now();
    return decisions;
  };
  try {
    const pool = poolOf(deps.db);
    const outcomes =
      pool === undefined ? await deps.db.transaction().execute(work) : await runPgTransaction(pool, work);
    marks.commitAckMs = performance.now();
    return outcomes;
  } catch (error) {
    throw decided ? new CommitFailed(error) : error;
  }
}

async function placeInTransaction(
  trx: SqlTransaction,
  deps: PlaceTradeDeps,
  requests: readonly PlaceTradeRequest[],
): Promise<Settled<PlaceTradeResult>[]> {
  const state = await readBatchState(trx, deps, requests);
  const decisions = decideBatch(requests, state);

  const accepted: NewPlacement[] = [];
  decisions.forEach((decision, index) => {
    if (decision.kind === 'accepted') {
      accepted.push({ index, id: randomUUID(), request: requests[index]!, trade: decision.trade });
    }
  });
  const written = await writeTrades(trx, accepted, {
    at: new Date(state.now),
    activeBonusCents: state.activeBonusCents,
  });

  return decisions.map((decision, index): Settled<PlaceTradeResult> => {
    switch (decision.kind) {
      case 'accepted':
        return { ok: true, value: { trade: written.get(index)!, replayed: false } };
      case 'replay-in-batch':
        return { ok: true, value: { trade: written.get(decision.index)!, replayed: true } };
      case 'replay-committed':
        return { ok: true, value: { trade: decision.prior.row, replayed: true } };
      case 'conflict':
        return { ok: false, error: new IdempotencyConflict(decision.idempotencyKey) };
      case 'refused':
        return { ok: false, error: decision.error };
    }
  });
}

/**
 * Everything the batch is decided on, read with four statements whatever its size, in one round
 * trip: the stake accounts of its users (locked), the trades its keys were used for, the terms of
 * its pairs and users (with each capped user's open real trades), the risk books of its symbols
 * (locked; a pair's first placement makes its book, a second round trip); then the clock and the
 * latest prices, once the locks are held.
 */
async function readBatchState(
  trx: SqlTransaction,
  deps: PlaceTradeDeps,
  requests: readonly PlaceTradeRequest[],
): Promise<BatchState<CommittedTrade>> {
  const users = new Set<string>();
  const symbols = new Set<string>();
  for (const request of requests) {
    users.add(request.userId);
    symbols.add(request.pair);
  }
  const userIds = [...users];
  const pairSymbols = [...symbols];
  const keyed = new Map<string, { userId: string; idempotencyKey: string }>();
  for (const { userId, idempotencyKey } of requests) {
    if (idempotencyKey !== undefined)
      keyed.set(idempotencyScope(userId, idempotencyKey), { userId, idempotencyKey });
  }
  // In this order, in one round trip: the keys and terms are read under the account locks, so a
  // concurrent placement with the same key has committed or not by then; then the books of the
  // batch's symbols are locked last (the wallet's protocol, level 5): every placement's caps and
  // payout are decided on them, and no other batch changes them before this one commits.
  const [balances, found, context, books] = await together(
    trx,
    () => lockStakeAccounts(trx, userIds),
    () => findTradesByIdempotencyKeys(trx, [...keyed.values()]),
    () => loadPlacementContext(trx, pairSymbols, userIds),
    () => lockExistingPairRisks(trx, pairSymbols),
  );
  const committed = new Map<string, CommittedTrade>();
  for (const { key, trade } of found) {
    committed.set(idempotencyScope(key.userId, key.idempotencyKey), { ...termsOf(trade), row: trade });
  }
  const pairs = new Map<string, PairTerms>();
  for (const [symbol, pair] of context.pairs) {
    pairs.set(symbol, { symbol, active: pair.active, payoutPct: pair.payout_pct });
  }
  // A pair's first placement makes its book (only a known pair gets one).
  const unbooked = [...pairs.keys()].filter((symbol) => !books.has(symbol));
  if (unbooked.length > 0) {
    for (const [symbol, row] of await lockPairRisks(trx, unbooked)) books.set(symbol, row);
  }
  const risk = new Map<string, PairRisk>();
  for (const [symbol, row] of books) if (pairs.has(symbol)) risk.set(symbol, pairRiskOf(row));
  const latestTicks = new Map<string, LatestTick>();
  for (const symbol of pairSymbols) {
    const tick = deps.prices.get(symbol);
    if (tick) {
      latestTicks.set(
        symbol,
        tick.reference
          ? { price: tick.price, atMs: tick.atMs, tickId: null, reference: tick.reference }
          : { price: tick.price, atMs: tick.atMs, tickId: null },
      );
    }
  }
  return {
    now: deps.clock.nowMs(),
    stakeCentsMax: context.stakeCentsMax,
    balances,
    pairs,
    latestTicks,
    activeBonusCents: context.activeBonusCents,
    committed,
    risk,
    traders: context.traders,
  };
}

/** A trade placed before the batch under one of its keys, with the terms the key pins. */
interface CommittedTrade extends PlacementTerms {
  readonly row: TradeRow;
}

interface NewPlacement {
  /** Its place in the batch. */
  readonly index: number;
  readonly id: string;
  readonly request: PlaceTradeRequest;
  readonly trade: AcceptedTrade;
}

/**
 * The accepted placements' writes, one statement set for all, in one round trip: the wallet holds
 * the stakes (it splits each on the balances it locked, in the same order, so it comes to the
 * decisions' split), then the trades, then the risk books. Returns each trade by its place in the
 * batch.
 */
async function writeTrades(
  trx: SqlTransaction,
  accepted: readonly NewPlacement[],
  options: { at: Date; activeBonusCents: ReadonlyMap<string, number> },
): Promise<Map<number, TradeRow>> {
  if (accepted.length === 0) return new Map();
  const stakes = planStakeHolds(
    trx,
    accepted.map(({ id, request, trade }) => ({
      tradeId: id,
      userId: request.userId,
      accountType: trade.accountType,
      amountCents: trade.amountCents,
      activeBonusCents: options.activeBonusCents.get(request.userId),
      occurredAt: options.at,
    })),
  );
  // The splits are decided before anything is written: the holds, the trades and the books go to
  // the server together.
  const [, rows] = await together(
    trx,
    () => postStakeHolds(trx, stakes),
    () =>
      insertTrades(
        trx,
        accepted.map(({ id, request, trade }, i) => ({
          id,
          userId: request.userId,
          idempotencyKey: request.idempotencyKey ?? null,
          trade: {
            ...trade,
            stakeFromCashCents: stakes.held[i]!.fromCashCents,
            stakeFromBonusCents: stakes.held[i]!.fromBonusCents,
          },
        })),
      ),
    () =>
      addToPlacedBooks(
        trx,
        accepted.filter(({ trade }) => trade.accountType === 'real').map(({ trade }) => trade),
      ),
  );
  // No outbox insert: each trade row got its publish position from the table's defaults, and the
  // relay publishes its `trades.opened.v1` from the row (`openedTradesSource`) once this commits.
  return new Map(accepted.map(({ index }, i) => [index, rows[i]!]));
}

function termsOf(row: TradeRow): PlacementTerms {
  return {
    pair: row.pair,
    direction: row.direction,
    amountCents: row.amount_cents,
    durationSec: row.duration_sec,
    accountType: row.account_type,
  };
}

function placementMetrics(registry: Registry | undefined) {
  if (!registry) return {};
  return {
    placed: new Counter({
      name: 'updown_trades_placed_total',
      help: 'Trades accepted by the order service',
      labelNames: ['pair', 'account'] as const,
      registers: [registry],
    }),
    batchSize: new Histogram({
      name: 'updown_placement_batch_size',
      help: 'Placements decided and committed together in one transaction',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
      registers: [registry],
    }),
    fallbacks: new Counter({
      name: 'updown_placement_batch_fallbacks_total',
      help: 'Batches that failed as a whole and were placed again one placement at a time',
      registers: [registry],
    }),
    riskRefusals: new Counter({
      name: 'updown_risk_refusals_total',
      help: 'Placements refused by the risk controls, by pair and reason (exposure_cap, trader_stake_cap, trader_trades_cap, payout_changed, suspended)',
      labelNames: ['pair', 'reason'] as const,
      registers: [registry],
    }),
    queueFull: new Counter({
      name: 'updown_placement_queue_full_total',
      help: 'Placements refused at once (503) because the queue waiting for a batch was full',
      registers: [registry],
    }),
  };
}
