import type { AddressInfo } from 'node:net';
import { buildApp, type GatewayDeps } from './app';
import type { GatewayConfig } from './config';
import type { GatewayInstance } from './http/instance';

export interface GatewayServerDeps extends GatewayDeps {
  config: GatewayDeps['config'] & Pick<GatewayConfig, 'HOST' | 'PORT'>;
}

export interface RunningGateway {
  readonly app: GatewayInstance;
  /** `http://host:port` actually bound (useful with `PORT=0`). */
  readonly address: string;
  readonly port: number;
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
  const { port } = app.server.address() as AddressInfo;
  const host = deps.config.HOST.includes(':') ? `[${deps.config.HOST}]` : deps.config.HOST;
  const address = `http://${host}:${port}`;
  deps.logger.info({ address }, 'gateway listening');

  let closing: Promise<void> | undefined;
  return {
    app,
    address,
    port,
    close() {
      closing ??= app.close();
      return closing;
    },
  };
}
