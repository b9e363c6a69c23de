import { randomBytes } from 'node:crypto';
import { freePort } from '@updown/runtime';
import { mokapiIsolation, startMokapi, type MokapiBroker } from '@updown/runtime/testing';
import {
  mokapiDocument,
  SERVICE_SCRIPTS,
  startServiceProcess,
  type ServiceName,
  type ServiceProcess,
} from '@updown/platform/testing';
import { benchEngineDir } from './engine-dir';
import { startPlatformChild } from './placement-platform';
import type { ProbedProcess } from './placement-probe';

/**
 * The two layouts the placement benchmark measures: the single process `npm start` runs, and the
 * distributed one — price-ingest, settlement, the order service and the gateway, each its own Node
 * process, on the Kafka wire protocol (the mokapi broker the integration tests use, loopback only).
 * Either way each process's CPU and `/metrics` are measured apart from the load generator's.
 */

export interface RunningLayout {
  readonly name: 'single process' | 'distributed';
  /** The gateway, where placements are sent. */
  readonly baseUrl: string;
  readonly processes: readonly ProbedProcess[];
  /** One line for the report: what runs where. */
  readonly description: string;
  stop(): Promise<void>;
}

/** Per-IP limit of the auth routes: every token is minted from one address, and auth is not under test. */
const AUTH_IP_RATE_MAX = '100000';

export async function startSingleLayout(databaseUrl: string): Promise<RunningLayout> {
  const platform = await startPlatformChild({ databaseUrl });
  return {
    name: 'single process',
    baseUrl: platform.baseUrl,
    processes: [{ name: 'platform', pid: platform.pid, metricsUrl: `${platform.baseUrl}/metrics` }],
    description:
      'npm start (services/platform/src/main.ts) in one child process, memory bus, LOG_LEVEL=warn, DB_POOL_MAX default',
    stop: () => platform.stop(),
  };
}

/** Why the distributed layout cannot run here, or undefined when it can. */
export function distributedUnavailable(): string | undefined {
  const isolation = mokapiIsolation();
  return isolation.ok ? undefined : `the mokapi broker cannot run isolated on loopback: ${isolation.reason}`;
}

const READY_TIMEOUT_MS = 60_000;
const READY_POLL_MS = 200;
const STOP_GRACE_MS = 15_000;

async function waitReady(url: string, service: ServiceProcess): Promise<void> {
  let exitCode: number | null | undefined;
  void service.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exitCode !== undefined)
      throw new Error(`${service.name} exited with ${exitCode}:\n${service.output()}`);
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  throw new Error(`${service.name} not ready after ${READY_TIMEOUT_MS} ms:\n${service.output()}`);
}

/**
 * Starts the broker and the four services in dependency order (price-ingest first: it starts the
 * ticks placement needs; the gateway last: it calls the order service), each on a port chosen
 * here so readiness is polled at `/readyz` whatever the log level.
 */
export async function startDistributedLayout(databaseUrl: string): Promise<RunningLayout> {
  const broker: MokapiBroker = await startMokapi({ document: mokapiDocument });
  const processes: { name: ServiceName; service: ServiceProcess; url: string }[] = [];
  const stop = async () => {
    // The gateway first, so no request meets a stopped order service; the broker last.
    for (const { service } of [...processes].reverse()) await service.stop(STOP_GRACE_MS);
    await broker.stop();
  };
  const common = {
    DATABASE_URL: databaseUrl,
    BUS: 'kafka',
    KAFKA_BROKERS: broker.brokers.join(','),
    LOG_LEVEL: 'warn',
    UPDOWN_ENV: 'test',
    SERVICE_TOKEN: randomBytes(32).toString('base64url'),
    JWT_SECRET: randomBytes(48).toString('base64url'),
    AUTH_IP_RATE_MAX,
  };
  const start = async (name: ServiceName, env: Record<string, string>, port: number) => {
    const service = startServiceProcess(`bench-${name}`, SERVICE_SCRIPTS[name], { ...common, ...env }, '-', {
      root: benchEngineDir(),
    });
    service.address.catch(() => undefined); // readiness is polled below, not read from the log
    const url = `http://127.0.0.1:${port}`;
    processes.push({ name, service, url });
    await waitReady(url, service);
    return url;
  };
  try {
    const ports = { priceIngest: await freePort(), settlement: await freePort(), order: await freePort() };
    const gatewayPort = await freePort();
    await start('price-ingest', { PRICE_INGEST_PORT: String(ports.priceIngest) }, ports.priceIngest);
    await start('settlement', { SETTLEMENT_PORT: String(ports.settlement) }, ports.settlement);
    const orderUrl = await start('order', { ORDER_PORT: String(ports.order) }, ports.order);
    const baseUrl = await start(
      'gateway',
      {
        HOST: '127.0.0.1',
        PORT: String(gatewayPort),
        ORDER_URL: orderUrl,
        CONSOLE_DIR: '/nonexistent-console',
      },
      gatewayPort,
    );
    return {
      name: 'distributed',
      baseUrl,
      processes: processes.map(({ name, service, url }) => ({
        name,
        pid: service.child.pid!,
        metricsUrl: `${url}/metrics`,
      })),
      description:
        'price-ingest, settlement, order and gateway as four child processes (npm run start:<service>), BUS=kafka on the mokapi broker (Kafka wire protocol, loopback only), LOG_LEVEL=warn, DB_POOL_MAX default each',
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
