import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  mokapiDocument,
  SERVICE_SCRIPTS,
  startServiceProcess,
  type ServiceName,
  type ServiceProcess,
} from '@updown/platform/testing';
import { startChaosPostgres, type ChaosPostgres } from './postgres';
import {
  allMigrations,
  createDb,
  freePort,
  migrateToLatest,
  startMokapi,
  waitFor,
  type MokapiBroker,
} from './runtime';

/**
 * The distributed platform as child processes, the way `services/platform/src/distributed.int.test.ts`
 * runs it: price-ingest, settlement, order and gateway, each its own Node process on Kafka's wire
 * protocol (mokapi on loopback), plus the harness's own PostgreSQL. Any of the three services and
 * PostgreSQL can be SIGKILLed and started again on the same port; the broker is never killed.
 */

export const SERVICE_TOKEN = 'chaos-test-service-token-0123456789abcdefghij';
const JWT_SECRET = 'chaos-test-jwt-secret-0123456789abcdefghijklmnop';
/** One signing key for every service (a 32-byte seed, base64url): checkpoints, receipts and the key set agree. */
export const CHAOS_SIGNING_KEY = Buffer.from('chaos-test-signing-key-012345678').toString('base64url');
export const ADMIN_EMAIL = 'chaos.admin@example.com';
export const ADMIN_PASSWORD = 'Chaos-admin-pass-123';
const READY_DEADLINE_MS = 90_000;

export type CrashTarget = 'settlement' | 'order' | 'gateway' | 'postgres';
export const CRASH_TARGETS: readonly CrashTarget[] = ['settlement', 'order', 'gateway', 'postgres'];

export interface ChaosPlatform {
  readonly gatewayUrl: string;
  readonly databaseUrl: string;
  kill(target: CrashTarget): Promise<void>;
  restart(target: CrashTarget): Promise<void>;
  /** Exits nobody asked for (a service that died on its own), with the tail of its output. */
  unexpectedExits(): readonly string[];
  /** The last lines of every service's output, for a failure message. */
  report(): string;
  stop(): Promise<void>;
}

export async function startChaosPlatform(): Promise<ChaosPlatform> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'updown-chaos-pg-'));
  let broker: MokapiBroker | undefined;
  let postgres: ChaosPostgres | undefined;
  const running = new Map<ServiceName, ServiceProcess>();
  const planned = new Set<ServiceProcess>();
  const unexpected: string[] = [];
  let stopping = false;

  try {
    broker = await startMokapi({ document: mokapiDocument });
    postgres = await startChaosPostgres(dataDir);
    const migrator = createDb(postgres.url, { max: 1 });
    await migrateToLatest(migrator.db, allMigrations);
    await migrator.close();
  } catch (error) {
    await broker?.stop();
    await postgres?.stop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const pg = postgres;
  const ports = {
    gateway: await freePort(),
    order: await freePort(),
    settlement: await freePort(),
    'price-ingest': await freePort(),
  } satisfies Record<ServiceName, number>;
  const common: Record<string, string> = {
    DATABASE_URL: pg.url,
    BUS: 'kafka',
    KAFKA_BROKERS: broker.brokers.join(','),
    // Warnings and errors only: the harness waits on /healthz, and request lines would cost CPU.
    LOG_LEVEL: 'warn',
    SERVICE_TOKEN,
    JWT_SECRET,
    SIGNING_KEY: CHAOS_SIGNING_KEY,
    UPDOWN_ENV: 'test',
  };
  const env: Record<ServiceName, Record<string, string>> = {
    // Checkpoints and receipts often enough that the run's trades get theirs under the crashes.
    'price-ingest': { PRICE_INGEST_PORT: String(ports['price-ingest']), CHECKPOINT_INTERVAL_MS: '2000' },
    settlement: { SETTLEMENT_PORT: String(ports.settlement), RECEIPT_INTERVAL_MS: '500' },
    order: { ORDER_PORT: String(ports.order) },
    gateway: {
      PORT: String(ports.gateway),
      ORDER_URL: `http://127.0.0.1:${ports.order}`,
      CONSOLE_DIR: '/nonexistent-console',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      // A day-long access token and a high sign-in ceiling: the workload signs in a few dozen
      // users once, and token expiry is not what this run is about.
      ACCESS_TOKEN_TTL_SEC: '86400',
      AUTH_IP_RATE_MAX: '100000',
    },
  };

  const launch = async (name: ServiceName): Promise<void> => {
    // At LOG_LEVEL=warn the "listening" info line never comes, so `address` stays unresolved and
    // readiness is the service's own /healthz on the port the harness chose.
    const service = startServiceProcess(
      name,
      SERVICE_SCRIPTS[name],
      { ...common, ...env[name] },
      'listening',
    );
    running.set(name, service);
    void service.exited.then((code) => {
      if (planned.has(service) || stopping) return;
      unexpected.push(`${name} exited with ${code}:\n${service.output().slice(-3_000)}`);
      // A supervisor restarts a service that died; the run reports it as an unplanned exit.
      if (running.get(name) === service) void launch(name).catch(() => undefined);
    });
    await waitFor(() => answers(`http://127.0.0.1:${ports[name]}/healthz`), {
      timeoutMs: READY_DEADLINE_MS,
      intervalMs: 100,
      what: `${name} listening\n${service.output().slice(-3_000)}`,
    });
  };

  const killService = async (name: ServiceName) => {
    const service = running.get(name);
    if (!service) throw new Error(`${name} is not running`);
    planned.add(service);
    await service.kill();
  };

  await launch('price-ingest');
  await Promise.all([launch('settlement'), launch('order')]);
  await launch('gateway');

  return {
    gatewayUrl: `http://127.0.0.1:${ports.gateway}`,
    databaseUrl: pg.url,
    kill: (target) => (target === 'postgres' ? pg.kill() : killService(target)),
    restart: (target) => (target === 'postgres' ? pg.restart() : launch(target)),
    unexpectedExits: () => unexpected,
    report: () => [...running.values()].map((p) => `--- ${p.name}\n${p.output().slice(-4_000)}`).join('\n'),
    async stop() {
      stopping = true;
      await Promise.all([...running.values()].map((service) => service.stop()));
      await broker.stop();
      await pg.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
