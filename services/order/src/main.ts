import { runStandalone, runtimeMigrations } from '@updown/runtime';
import { priceIngestMigrations, startLatestPrices } from '@updown/price-ingest';
import { walletMigrations } from '@updown/wallet';
import { loadOrderConfig, serviceToken } from './config';
import { orderMigrations } from './db/migrations/index';
import { buildOrderApp } from './http/order-app';
import { openedTradesSource, ORDER_PRODUCER } from './trades/opened-events';
import { createPlaceTrade } from './trades/place-trade.handler';
import { startToxicityScoring } from './risk/toxicity-job';

/**
 * `npm run start:order`: the order service alone. It keeps the latest price of every pair from
 * `market.ticks.v1` (its own consumer group, so every instance sees every tick), places trades for
 * the gateway over the internal HTTP call, and publishes `trades.opened.v1` through its outbox
 * relay. The single process calls `createPlaceTrade` directly instead.
 */
runStandalone({
  name: 'order',
  loadConfig: loadOrderConfig,
  opsAddress: () => null,
  memoryBusWarning:
    'in-memory bus: order sees no ticks from other processes, so every placement is refused as stale',
  outboxRelay: true,
  outboxSources: [openedTradesSource(ORDER_PRODUCER)],
  migrations: [runtimeMigrations, priceIngestMigrations, walletMigrations, orderMigrations],
  start: async ({ config, database, bus, logger, registry, clock, kickRelay }) => {
    const prices = await startLatestPrices({ db: database.db, bus, clock, logger });
    const placeTrade = createPlaceTrade({
      db: database.db,
      prices,
      clock,
      registry,
      onCommitted: kickRelay,
    });
    const app = buildOrderApp({
      placeTrade,
      db: database.db,
      registry,
      logger,
      serviceToken: serviceToken(config),
    });
    let address: string;
    try {
      address = await app.listen({ host: config.ORDER_HOST, port: config.ORDER_PORT });
    } catch (error) {
      await prices.stop();
      throw error;
    }
    logger.info({ address }, 'order service listening');
    const toxicity = startToxicityScoring({ db: database.db, clock, logger });
    return {
      async stop() {
        await toxicity.stop();
        await app.close();
        await prices.stop();
      },
    };
  },
}).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
