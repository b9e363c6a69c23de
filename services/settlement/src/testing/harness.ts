export { metricValue } from '@updown/runtime/testing';
import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { pino } from 'pino';
import { createEvent, eventTopics, type EventOf, type EventTopics } from '@updown/schemas';
import {
  createPlaceTrade,
  findTrade,
  openedTradesSource,
  ORDER_PRODUCER,
  type PlaceTradeRequest,
} from '@updown/order';
import { insertTestUser } from '@updown/accounts/testing';
import { countPendingTrades, insertPendingTrades } from '@updown/order/testing';
import { storeTicks } from '@updown/price-ingest/testing';
import { ManualClock, MemoryBus, OutboxRelay, Registry, type Database } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { getUserBalances, openUserAccounts, transferBatch, type UserBalances } from '@updown/wallet';
import { fundUser } from '@updown/wallet/testing';
import { startSettlement, type RunningSettlement, type SettlementOptions } from '../settlement.service';
import { SETTLEMENT_PRODUCER, settledTradesSource } from '../settled-events';

/**
 * A test bench for settlement against real PostgreSQL: a manual clock, the in-memory bus, a tick
 * feed the test scripts (stored first, then published, as price-ingest does), placement through
 * the order service's handler, and an outbox relay so events really travel.
 */

export const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
export const logger = pino({ level: process.env.UPDOWN_TEST_LOG_LEVEL ?? 'silent' });

export interface Harness {
  readonly database: TestDatabase;
  readonly db: Kysely<Database>;
  readonly clock: ManualClock;
  readonly bus: MemoryBus<EventTopics>;
  readonly registry: Registry;
  readonly relay: OutboxRelay;
  /** Every `trades.settled.v1` event the bus delivered to an observer group, in order. */
  readonly settledEvents: EventOf<'trades.settled.v1'>[];
  /** Stores a tick and publishes it; returns its row id. */
  tick(
    pair: string,
    atMs: number,
    price: number,
    options?: { publish?: boolean; store?: boolean },
  ): Promise<number>;
  /** Stores ticks without publishing, in one statement. */
  storeTicks(ticks: readonly { pair: string; atMs: number; price: number }[]): Promise<void>;
  publishTick(pair: string, atMs: number, price: number): Promise<void>;
  newUser(funds?: { demo?: number; real?: number; bonus?: number }): Promise<string>;
  place(request: Omit<PlaceTradeRequest, 'durationSec'> & { durationSec?: number }): Promise<TradeRow>;
  start(options?: SettlementOptions, db?: Kysely<Database>): Promise<RunningSettlement>;
  trade(id: string): Promise<TradeRow>;
  balances(userId: string): Promise<UserBalances>;
  close(): Promise<void>;
}

export type TradeRow = Awaited<ReturnType<ReturnType<typeof createPlaceTrade>>>['trade'];

export async function createHarness(): Promise<Harness> {
  const database = await createTestDatabase({ max: 20 });
  const clock = new ManualClock(T0);
  const registry = new Registry();
  const bus = new MemoryBus({ topics: eventTopics, logger, registry, partitions: 4 });
  const relay = new OutboxRelay(
    {
      db: database.db,
      bus,
      logger,
      registry,
      sources: [openedTradesSource(ORDER_PRODUCER), settledTradesSource(SETTLEMENT_PRODUCER)],
    },
    { pollIntervalMs: 10, batchSize: 1_000 },
  );
  relay.start();
  const settledEvents: EventOf<'trades.settled.v1'>[] = [];
  await bus.subscribe('trades.settled.v1', 'test-observer', async (event) => void settledEvents.push(event));
  const prices = new Map<string, { price: number; atMs: number }>();
  const placeTrade = createPlaceTrade({
    db: database.db,
    prices: { get: (pair) => prices.get(pair) },
    clock,
    onCommitted: () => relay.kick(),
  });
  const services: RunningSettlement[] = [];

  const publishTick = async (pair: string, atMs: number, price: number) => {
    await bus.publish(
      'market.ticks.v1',
      pair,
      createEvent('market.ticks.v1', { pair, price, atMs }, { producer: 'test' }),
    );
  };
  const harness: Harness = {
    database,
    db: database.db,
    clock,
    bus,
    registry,
    relay,
    settledEvents,
    async tick(pair, atMs, price, options = {}) {
      let id = 0;
      if (options.store ?? true) {
        const [stored] = await storeTicks(database.db, [{ pair, atMs, price }]);
        id = stored!;
      }
      const latest = prices.get(pair);
      if (!latest || atMs >= latest.atMs) prices.set(pair, { price, atMs });
      if (options.publish ?? true) await publishTick(pair, atMs, price);
      return id;
    },
    async storeTicks(ticks) {
      if (ticks.length === 0) return;
      await storeTicks(database.db, ticks);
      for (const t of ticks) {
        const latest = prices.get(t.pair);
        if (!latest || t.atMs >= latest.atMs) prices.set(t.pair, { price: t.price, atMs: t.atMs });
      }
    },
    publishTick,
    async newUser(funds = {}) {
      const id = randomUUID();
      await insertTestUser(database.db, id);
      await openUserAccounts(database.db, id);
      await fundUser(database.db, id, {
        demoCents: funds.demo,
        realCents: funds.real,
        bonusCents: funds.bonus,
      });
      return id;
    },
    async place(request) {
      const result = await placeTrade({ durationSec: 60, ...request });
      return result.trade;
    },
    async start(options = {}, db = database.db) {
      const service = await startSettlement({
        db,
        bus,
        logger,
        registry,
        clock,
        onCommitted: () => relay.kick(),
        options,
      });
      services.push(service);
      return service;
    },
    async trade(id) {
      const row = await findTrade(database.db, id);
      if (!row) throw new Error(`no trade ${id}`);
      return row;
    },
    balances: (userId) => getUserBalances(database.db, userId),
    async close() {
      await Promise.allSettled(services.map((s) => s.stop()));
      await relay.stop();
      await bus.close();
      await database.drop();
    },
  };
  return harness;
}

/**
 * Inserts `count` pending trades straight into the tables (stakes held through one batched ledger
 * write), spread round-robin over `users`, alternating direction and book. For load-shaped tests
 * where placing one by one would only slow the test down.
 */
export async function seedTrades(
  h: Harness,
  spec: {
    users: readonly string[];
    count: number;
    pair: string;
    acceptedAtMs: number;
    durationSec?: number;
    entryPrice: number;
  },
): Promise<string[]> {
  const durationSec = spec.durationSec ?? 60;
  const trades = Array.from({ length: spec.count }, (_, i) => ({
    id: randomUUID(),
    userId: spec.users[i % spec.users.length]!,
    direction: i % 2 === 0 ? ('UP' as const) : ('DOWN' as const),
    accountType: i % 3 === 0 ? ('real' as const) : ('demo' as const),
    amount: 100 + (i % 50),
  }));
  await h.db.transaction().execute(async (trx) => {
    await transferBatch(
      trx,
      trades.map((t) => ({
        kind: 'trade_stake',
        idempotencyKey: `trade:${t.id}:stake`,
        postings: [
          { account: { owner: t.userId, type: t.accountType }, amountCents: -t.amount },
          { account: { owner: t.userId, type: `${t.accountType}_in_play` as const }, amountCents: t.amount },
        ],
      })),
    );
    await insertPendingTrades(trx, {
      trades: trades.map((t) => ({ ...t, amountCents: t.amount })),
      pair: spec.pair,
      acceptedAtMs: spec.acceptedAtMs,
      durationSec,
      entryPrice: spec.entryPrice,
    });
  });
  return trades.map((t) => t.id);
}

/** Polls until `predicate` holds (real time: the bus and the relay run on timers and microtasks). */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() >= deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function pendingCount(db: Kysely<Database>): Promise<number> {
  return countPendingTrades(db);
}

/** A second kysely over the same pool that counts every statement it sends (BEGIN and COMMIT included). */
export function countingDb(database: TestDatabase): {
  db: Kysely<Database>;
  statements: () => number;
  reset(): void;
} {
  let count = 0;
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: database.pool }),
    log: (event) => {
      if (event.level === 'query' || event.level === 'error') count++;
    },
  });
  return {
    db,
    statements: () => count,
    reset() {
      count = 0;
    },
  };
}

export { sql };
