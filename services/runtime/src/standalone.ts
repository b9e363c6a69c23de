import { createBus } from './bus/create-bus';
import type { Bus } from './bus/bus';
import { systemClock, type Clock } from './clock';
import { ConfigError } from './config/env';
import type { RuntimeConfig } from './config/runtime-config';
import { openDatabase, type ResolvedDatabase } from './db/database';
import { migrateToLatest, type MigrationSet } from './db/migrator';
import { Lifecycle } from './lifecycle';
import { failureFields } from './failure-text';
import { createLogger, type Logger } from './logger';
import { createMetricsRegistry, observeDbPool, type Registry } from './metrics';
import { startOpsServer, type OpsServer } from './ops-server';
import { coalescedKick, RELAY_WAKE } from './outbox/coalesced-kick';
import { OutboxRelay } from './outbox/outbox-relay';
import type { OutboxSource } from './outbox/outbox-source';

/**
 * The start-up every service shares when it runs alone (`npm run start:<service>`): configuration
 * (exit 1 naming any bad variable), logger, metrics, database and migrations, bus, an optional
 * outbox relay, the service, then `/healthz`, `/readyz` and `/metrics`. Shutdown runs the other
 * way: the service stops first (its work in flight finishes), the relay publishes what is left,
 * then the endpoints, the bus and the pool close. A signal during start-up waits for the start and
 * then stops what it started.
 */

export interface StandaloneContext<C> {
  readonly config: C;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly clock: Clock;
  readonly database: ResolvedDatabase;
  readonly bus: Bus;
  /**
   * Wakes the service's outbox relay (at most every `RELAY_WAKE.kickIntervalMs`, as the single
   * process does): call it after a commit that wrote rows of an outbox source. Does nothing
   * without a relay.
   */
  readonly kickRelay: () => void;
}

export interface StandaloneService<C> {
  /** The service's name in logs, metrics and the database's application_name. */
  readonly name: string;
  loadConfig(): C;
  /**
   * Where the operations endpoints listen; null for a service that serves `/healthz`, `/readyz`
   * and `/metrics` on its own HTTP port (the order service).
   */
  opsAddress(config: C): { host: string; port: number } | null;
  /** What the service cannot do on the in-memory bus, logged as a warning when `BUS=memory`. */
  readonly memoryBusWarning: string;
  readonly outboxRelay?: boolean;
  /** Tables that are their own outbox, for that relay to publish too (order's and settlement's trades). */
  readonly outboxSources?: readonly OutboxSource[];
  /**
   * The migrations applied at start: the service's own package and the packages it is built on.
   * A service below the gateway cannot migrate an empty database on its own (its tables reference
   * the gateway's `users`); run `npm run db:migrate` (or the gateway, or `npm start`) first.
   */
  readonly migrations: readonly MigrationSet[];
  start(context: StandaloneContext<C>): Promise<{ stop(): Promise<void> }>;
}

type ServiceConfig = Pick<
  RuntimeConfig,
  | 'LOG_LEVEL'
  | 'SHUTDOWN_TIMEOUT_MS'
  | 'DATABASE_URL'
  | 'DATA_DIR'
  | 'EMBEDDED_PG_PORT'
  | 'DB_POOL_MAX'
  | 'BUS'
  | 'KAFKA_BROKERS'
  | 'KAFKA_CLIENT_ID'
>;

export async function runStandalone<C extends ServiceConfig>(service: StandaloneService<C>): Promise<void> {
  let config: C;
  try {
    config = service.loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: service.name });
  const registry = createMetricsRegistry({ service: service.name });
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  lifecycle.handleSignals();

  let stopping = false;
  let starting: Promise<{ stop(): Promise<void> }> | undefined;
  let relay: OutboxRelay | undefined;
  let kickRelay: ReturnType<typeof coalescedKick> | undefined;
  let ops: OpsServer | undefined;
  let bus: Bus | undefined;
  let database: ResolvedDatabase | undefined;
  lifecycle.add(service.name, async () => {
    stopping = true;
    const running = await starting?.catch(() => undefined);
    await running?.stop();
  });
  lifecycle.add('outbox relay', async () => {
    kickRelay?.cancel();
    await relay?.stop();
  });
  lifecycle.add('operations endpoints', async () => ops?.close());
  lifecycle.add('bus', async () => bus?.close());
  lifecycle.add('database', async () => database?.shutdown());
  try {
    database = await openDatabase(config, logger, `updown-${service.name}`);
    observeDbPool(database.pool, registry, database.primary);
    const applied = await migrateToLatest(database.db, service.migrations);
    logger.info({ database: database.description, applied }, 'database ready');
    bus = await createBus(config, { logger, registry });
    if (config.BUS === 'memory') logger.warn(service.memoryBusWarning);
    if (service.outboxRelay) {
      const started = new OutboxRelay(
        { db: database.db, bus, logger, registry, sources: service.outboxSources ?? [] },
        { pollIntervalMs: RELAY_WAKE.pollIntervalMs },
      );
      started.start();
      relay = started;
      kickRelay = coalescedKick(() => started.kick(), RELAY_WAKE.kickIntervalMs);
    }
    starting = service.start({
      config,
      logger,
      registry,
      clock: systemClock,
      database,
      bus,
      kickRelay: kickRelay ?? (() => undefined),
    });
    await starting;
    if (stopping) return;
    const address = service.opsAddress(config);
    if (address) {
      ops = await startOpsServer({ ...address, registry, db: database.db });
      logger.info({ address: `http://${address.host}:${ops.port}` }, 'operations endpoints listening');
    }
  } catch (error) {
    if (stopping) return;
    logger.fatal(failureFields(error), `${service.name} failed to start`);
    await lifecycle.shutdown('start-up failed');
    process.exit(1);
  }
}
