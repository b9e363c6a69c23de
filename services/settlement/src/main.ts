import { resolveSigningKey, runStandalone, runtimeMigrations } from '@updown/runtime';
import { orderMigrations } from '@updown/order';
import { priceIngestMigrations } from '@updown/price-ingest';
import { walletMigrations } from '@updown/wallet';
import { loadSettlementConfig } from './config';
import { settlementMigrations } from './db/migrations/index';
import { startReceiptIssuer } from './receipts/receipt-service';
import { SETTLEMENT_PRODUCER, settledTradesSource } from './settled-events';
import { startSettlement } from './settlement.service';

/**
 * `npm run start:settlement`: the settlement service alone, with an outbox relay that publishes
 * what it writes, settled trades included (from their rows). The single process (services/platform) calls `startSettlement` the same way with
 * its shared bus, database and relay.
 */
runStandalone({
  name: 'settlement',
  loadConfig: loadSettlementConfig,
  opsAddress: (config) => ({ host: config.SETTLEMENT_HOST, port: config.SETTLEMENT_PORT }),
  memoryBusWarning: 'in-memory bus: settlement hears only ticks and trades published inside this process',
  outboxRelay: true,
  outboxSources: [settledTradesSource(SETTLEMENT_PRODUCER)],
  migrations: [
    runtimeMigrations,
    priceIngestMigrations,
    walletMigrations,
    orderMigrations,
    settlementMigrations,
  ],
  start: async ({ config, database, bus, logger, registry, clock, kickRelay }) => {
    const settlement = await startSettlement({
      db: database.db,
      bus,
      logger,
      registry,
      clock,
      onCommitted: kickRelay,
      options: {
        batchSize: config.SETTLEMENT_BATCH_SIZE,
        scheduleCapacity: config.SETTLEMENT_SCHEDULE_MAX,
        sweepIntervalMs: config.SETTLEMENT_SWEEP_INTERVAL_MS,
        partitions: config.SETTLEMENT_PARTITIONS,
      },
    });
    const receipts = startReceiptIssuer({
      db: database.db,
      key: await resolveSigningKey(config, logger),
      clock,
      logger,
      registry,
      intervalMs: config.RECEIPT_INTERVAL_MS,
      waitMsMax: config.RECEIPT_WAIT_MAX_MS,
    });
    return {
      async stop() {
        await receipts.stop();
        await settlement.stop();
      },
    };
  },
}).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
