import { sql } from 'kysely';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  createTestDatabase,
  dockerEngineAnswers,
  mokapiIsolation,
  startMokapi,
  waitFor,
  type MokapiBroker,
  type TestDatabase,
} from '@updown/runtime/testing';
import { verifyLedger } from '@updown/wallet';
import {
  mokapiDocument,
  SERVICE_SCRIPTS,
  startServiceProcess,
  type ServiceProcess,
} from './testing/service-process';

/**
 * The distributed deployment on one machine: price-ingest, two settlement instances in one
 * consumer group, the order service and two gateways, each its own Node process, on Kafka's wire
 * protocol and one PostgreSQL. Trades are placed through a gateway (so through the gateway → order
 * HTTP seam); one settlement process is killed with SIGKILL while they are open and a third starts.
 * Every trade must settle exactly once, at the stored tick in force at its expiry, with the books
 * balanced; each gateway must fan ticks out to its own WebSocket clients.
 */

const SERVICE_TOKEN = 'distributed-test-service-token-0123456789abcdef';
const JWT_SECRET = 'distributed-test-jwt-secret-0123456789abcdefghijkl';
const PAIRS = ['BTCUSDT', 'EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'ETHUSD'];
const TRADE_DURATION_SEC = 60;
const DEMO_GRANT_CENTS = 1_000_000;

const isolation = mokapiIsolation();
const dockerAvailable = await dockerEngineAnswers();

interface Broker {
  readonly brokers: string[];
  stop(): Promise<void>;
}

async function startMokapiBroker(): Promise<Broker> {
  const broker: MokapiBroker = await startMokapi({ document: mokapiDocument });
  return broker;
}

async function startRealKafka(): Promise<Broker> {
  // Imported only here, so machines without Docker never load testcontainers.
  const { KafkaContainer } = await import('@testcontainers/kafka');
  const container = await new KafkaContainer('confluentinc/cp-kafka:7.9.0')
    .withKraft()
    .withEnvironment({ KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0' })
    .start();
  return {
    brokers: [`${container.getHost()}:${container.getMappedPort(9093)}`],
    stop: async () => void (await container.stop()),
  };
}

function describeDistributed(name: string, enabled: boolean, startBroker: () => Promise<Broker>) {
  (enabled ? describe : describe.skip)(name, () => {
    let broker: Broker | undefined;
    let database: TestDatabase;
    const processes: ServiceProcess[] = [];
    let common: Record<string, string>;

    const start = (label: string, script: string, env: Record<string, string>, ready: string) => {
      const service = startServiceProcess(label, script, { ...common, ...env }, ready);
      processes.push(service);
      return service;
    };
    const settlement = (label: string) =>
      start(label, SERVICE_SCRIPTS.settlement, { SETTLEMENT_PORT: '0' }, 'operations endpoints listening');
    const gateway = (label: string, orderUrl: string) =>
      start(
        label,
        SERVICE_SCRIPTS.gateway,
        { PORT: '0', ORDER_URL: orderUrl, CONSOLE_DIR: '/nonexistent-console' },
        'gateway listening',
      );

    beforeAll(async () => {
      broker = await startBroker();
      database = await createTestDatabase({ max: 5 });
      common = {
        DATABASE_URL: database.url,
        BUS: 'kafka',
        KAFKA_BROKERS: broker.brokers.join(','),
        LOG_LEVEL: 'info',
        SERVICE_TOKEN,
        JWT_SECRET,
        UPDOWN_ENV: 'test',
      };
    }, 180_000);

    afterAll(async () => {
      await Promise.all(processes.map((service) => service.stop()));
      await broker?.stop();
      await database?.drop();
    }, 60_000);

    it(
      'settles every trade exactly once when a settlement process dies, and fans ticks out per gateway',
      async () => {
        const failureReport = () =>
          processes.map((p) => `--- ${p.name}\n${p.output().slice(-4_000)}`).join('\n');
        // price-ingest first: it backfills history and starts the ticks everyone else consumes.
        const priceIngest = start(
          'price-ingest',
          SERVICE_SCRIPTS['price-ingest'],
          { PRICE_INGEST_PORT: '0' },
          'operations endpoints listening',
        );
        await priceIngest.address;
        const settlementA = settlement('settlement-a');
        const settlementB = settlement('settlement-b');
        const order = start('order', SERVICE_SCRIPTS.order, { ORDER_PORT: '0' }, 'order service listening');
        const orderUrl = await order.address;
        const [gatewayA, gatewayB] = [gateway('gateway-a', orderUrl), gateway('gateway-b', orderUrl)];
        const [urlA, urlB] = await Promise.all([gatewayA.address, gatewayB.address]);
        await Promise.all([settlementA.address, settlementB.address]);

        // Each gateway, in its own consumer group, sends ticks to its own socket clients.
        const ticksSeen = await Promise.all([urlA, urlB].map((url) => firstTick(url, 'BTCUSDT')));
        for (const tick of ticksSeen)
          expect(tick).toMatchObject({ pair: 'BTCUSDT', price: expect.any(Number) });

        // A trader signs in on one gateway and trades through the other: the JWT key is shared.
        const account = {
          name: 'Dana Distributed',
          email: `dana.${Date.now()}@example.com`,
          password: 'Sturdy-pass-123',
        };
        expect((await post(urlA, '/api/auth/register', account)).status).toBe(201);
        const loginBody = (await (
          await post(urlA, '/api/auth/login', { email: account.email, password: account.password })
        ).json()) as { access_token: string };
        const auth = { authorization: `Bearer ${loginBody.access_token}` };

        const placed: string[] = [];
        for (const [i, pair] of PAIRS.flatMap((p) => [p, p]).entries()) {
          const body = {
            pair,
            direction: i % 2 === 0 ? 'UP' : 'DOWN',
            amount: 10 + i,
            duration: TRADE_DURATION_SEC,
            account_type: 'demo',
          };
          // The order service refuses until it has heard a fresh tick of the pair; that takes a moment after start.
          let response = await post(urlB, '/api/trades/place', body, auth);
          const deadline = Date.now() + 20_000;
          while (response.status === 409 && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 250));
            response = await post(urlB, '/api/trades/place', body, auth);
          }
          expect(response.status, `${pair}: ${await response.clone().text()}\n${failureReport()}`).toBe(201);
          placed.push(((await response.json()) as { id: string }).id);
        }
        // A refusal from the order service keeps its status and text across the seam.
        const refused = await post(
          urlB,
          '/api/trades/place',
          { pair: 'BTCUSDT', direction: 'UP', amount: 10, duration: 61, account_type: 'demo' },
          auth,
        );
        expect(refused.status).toBe(400);
        expect(await refused.json()).toMatchObject({ code: 'INVALID_DURATION' });

        // One settlement process dies mid-run without a chance to clean up; a replacement joins the group.
        await settlementA.kill();
        const settlementC = settlement('settlement-c');
        await settlementC.address;

        await waitFor(
          async () => {
            const { rows } = await sql<{
              n: number;
            }>`select count(*)::int as n from trades where status = 'pending'`.execute(database.db);
            return rows[0]!.n === 0;
          },
          {
            timeoutMs: (TRADE_DURATION_SEC + 60) * 1000,
            intervalMs: 500,
            what: `every trade settled\n${failureReport()}`,
          },
        );

        const trades = await database.db.selectFrom('trades').selectAll().where('id', 'in', placed).execute();
        expect(trades).toHaveLength(placed.length);
        for (const trade of trades) {
          expect(['won', 'lost', 'draw']).toContain(trade.status);
          // The exit is the stored tick with the greatest at_ms at or before the expiry.
          const { rows } = await sql<{ price: number }>`
          select price from market_ticks where pair = ${trade.pair} and at_ms <= ${trade.expiry_at_ms}
          order by at_ms desc limit 1`.execute(database.db);
          expect(trade.exit_price, trade.id).toBe(rows[0]!.price);
        }

        // Exactly one trades.settled.v1 per trade went out on the bus.
        const settledEvents = await readSettledEvents(common.KAFKA_BROKERS!.split(','), placed.length);
        const perTrade = new Map<string, number>();
        for (const id of settledEvents) perTrade.set(id, (perTrade.get(id) ?? 0) + 1);
        for (const id of placed) expect(perTrade.get(id), id).toBe(1);

        // The books balance, and the trader's demo balance is the grant plus every trade's P/L.
        expect((await verifyLedger(database.db)).ok).toBe(true);
        const pnl = trades.reduce((sum, trade) => sum + trade.pnl_cents!, 0);
        const balance = await database.db
          .selectFrom('ledger_accounts')
          .select('balance')
          .where('code', 'like', `user:%:demo`)
          .where('owner_id', '=', trades[0]!.user_id)
          .executeTakeFirstOrThrow();
        expect(balance.balance).toBe(DEMO_GRANT_CENTS + pnl);
      },
      (TRADE_DURATION_SEC + 150) * 1000,
    );
  });
}

describeDistributed(
  isolation.ok
    ? 'four services as separate processes on Kafka (mokapi, Kafka wire protocol, loopback only)'
    : `four services as separate processes on Kafka (mokapi; skipped: ${isolation.reason})`,
  isolation.ok,
  startMokapiBroker,
);
describeDistributed(
  dockerAvailable
    ? 'four services as separate processes on real Kafka (testcontainers)'
    : 'four services as separate processes on real Kafka (skipped: no Docker engine)',
  dockerAvailable,
  startRealKafka,
);

function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

function firstTick(base: string, pair: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/market/ws?pair=${pair}`);
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`no tick from ${base} within 20 s`));
    }, 20_000);
    socket.on('message', (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as { price?: number };
      if (message.price === undefined) return;
      clearTimeout(timer);
      socket.close();
      resolve(message);
    });
    socket.on('error', reject);
  });
}

/** Reads `trades.settled.v1` from the beginning with a throwaway group until `countMin` events arrived. */
async function readSettledEvents(brokers: string[], countMin: number): Promise<string[]> {
  const kafka = new Kafka({ clientId: 'distributed-test-reader', brokers, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({
    groupId: `reader-${crypto.randomUUID()}`,
    heartbeatInterval: 100,
    maxWaitTimeInMs: 100,
  });
  const ids: string[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: 'trades.settled.v1', fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const event = JSON.parse(message.value!.toString('utf8')) as { payload: { tradeId: string } };
        ids.push(event.payload.tradeId);
      },
    });
    await waitFor(() => ids.length >= countMin, { timeoutMs: 20_000, what: `${countMin} settled events` });
    // Anything published twice would arrive right behind the first copies.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  } finally {
    await consumer.disconnect();
  }
  return ids;
}
