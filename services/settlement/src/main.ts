import {
  ConfigError,
  createBus,
  createLogger,
  createMetricsRegistry,
  Lifecycle,
  migrateToLatest,
  openDatabase,
  OutboxRelay,
  systemClock,
  type Bus,
  type ResolvedDatabase,
  startOpsServer,
  type OpsServer,
} from '@updown/runtime';
import { loadSettlementConfig, type SettlementConfig } from './config';
import { startSettlement, type RunningSettlement } from './settlement.service';

/**
 * `npm run start:settlement`: the settlement service alone, with an outbox relay that publishes
 * what it writes. The single process (services/platform) calls `startSettlement` the same way with
 * its shared bus, database and relay.
 */
async function main(): Promise<void> {
  let config: SettlementConfig;
  try {
    config = loadSettlementConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'settlement' });
  const registry = createMetricsRegistry({ service: 'settlement' });
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  lifecycle.handleSignals();

  // Steps run in the order added: stop settling (the batch in flight commits), then publish what
  // the outbox still holds, then close the endpoints, the bus and the pool.
  let stopping = false;
  let settlement: RunningSettlement | undefined;
  let relay: OutboxRelay | undefined;
  let ops: OpsServer | undefined;
  let bus: Bus | undefined;
  let database: ResolvedDatabase | undefined;
  lifecycle.add('settlement', async () => {
    stopping = true;
    await settlement?.stop();
  });
  lifecycle.add('outbox relay', async () => relay?.stop());
  lifecycle.add('operations endpoints', async () => ops?.close());
  lifecycle.add('bus', async () => bus?.close());
  lifecycle.add('database', async () => database?.shutdown());
  try {
    database = await openDatabase(config, logger, 'updown-settlement');
    const applied = await migrateToLatest(database.db);
    logger.info({ database: database.description, applied }, 'database ready');
    bus = await createBus(config, { logger, registry });
    if (config.BUS === 'memory') {
      logger.warn('in-memory bus: settlement hears only ticks and trades published inside this process');
    }
    const outbox = new OutboxRelay({ db: database.db, bus, logger, registry });
    relay = outbox;
    outbox.start();
    settlement = await startSettlement({
      db: database.db,
      bus,
      logger,
      registry,
      clock: systemClock,
      onCommitted: () => outbox.kick(),
      options: {
        batchSize: config.SETTLEMENT_BATCH_SIZE,
        scheduleCapacity: config.SETTLEMENT_SCHEDULE_MAX,
        sweepIntervalMs: config.SETTLEMENT_SWEEP_INTERVAL_MS,
      },
    });
    if (stopping) return;
    ops = await startOpsServer({
      host: config.SETTLEMENT_HOST,
      port: config.SETTLEMENT_PORT,
      registry,
      db: database.db,
    });
    logger.info(
      { address: `http://${config.SETTLEMENT_HOST}:${ops.port}` },
      'operations endpoints listening',
    );
  } catch (error) {
    if (stopping) return;
    logger.fatal({ err: error }, 'settlement failed to start');
    await lifecycle.shutdown('start-up failed');
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
