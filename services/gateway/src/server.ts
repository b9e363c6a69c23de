import type { AddressInfo } from 'node:net';
import { buildApp, type GatewayDeps } from './app';
import type { GatewayConfig } from './config';
import type { GatewayInstance } from './http/instance';
import { startMetricsListener, type MetricsListener } from './http/metrics-listener';

export interface GatewayServerDeps extends GatewayDeps {
  config: GatewayDeps['config'] &
    Pick<GatewayConfig, 'HOST' | 'PORT'> &
    Partial<Pick<GatewayConfig, 'METRICS_HOST'>>;
}

export interface RunningGateway {
  readonly app: GatewayInstance;
  /** `http://host:port` actually bound (useful with `PORT=0`). */
  readonly address: string;
  readonly port: number;
  /** Where `/metrics` is served when `METRICS_PORT` moves it off the public port. */
  readonly metricsAddress: string | undefined;
  /**
   * Stops accepting connections, lets in-flight requests finish and closes idle keep-alive
   * sockets. Safe to call more than once. Bounding the wait is the caller's job (main.ts).
   */
  close(): Promise<void>;
}

export async function startGateway(deps: GatewayServerDeps): Promise<RunningGateway> {
  const app = buildApp(deps);
  try {
    await app.listen({ host: deps.config.HOST, port: deps.config.PORT });
  } catch (error) {
    await app.close();
    throw error;
  }
  let metrics: MetricsListener | undefined;
  if (deps.config.METRICS_PORT !== undefined) {
    try {
      metrics = await startMetricsListener({
        host: deps.config.METRICS_HOST ?? '127.0.0.1',
        port: deps.config.METRICS_PORT,
        registry: deps.registry,
        logger: deps.logger,
        token: deps.config.METRICS_TOKEN,
      });
    } catch (error) {
      await app.close();
      throw error;
    }
  }
  const { port } = app.server.address() as AddressInfo;
  const host = deps.config.HOST.includes(':') ? `[${deps.config.HOST}]` : deps.config.HOST;
  const address = `http://${host}:${port}`;
  deps.logger.info({ address, metricsAddress: metrics?.address }, 'gateway listening');

  let closing: Promise<void> | undefined;
  return {
    app,
    address,
    port,
    metricsAddress: metrics?.address,
    close() {
      // The scrape stays up while the public port drains, then goes too.
      closing ??= app.close().then(() => metrics?.close());
      return closing;
    },
  };
}
