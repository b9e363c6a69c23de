import { env, type ConfigOf } from '@updown/runtime';

/** Limits of the market routes and the WebSocket price feed. */
export interface MarketPluginOptions {
  /** Most open price sockets per process; further connections are closed with 1013. */
  readonly wsClientsMax: number;
  /**
   * Most open price sockets per client address (`request.ip`), so one client cannot take the
   * whole process's share; further connections from it are closed with 1013.
   */
  readonly wsClientsPerAddressMax: number;
  /** Bytes queued for one socket beyond which ticks to it are skipped. */
  readonly wsBufferedBytesMax: number;
  /** A socket that stays over `wsBufferedBytesMax` this long is disconnected. */
  readonly wsSlowClientTimeoutMs: number;
  /** Ping interval; a socket that misses a pong for a whole interval is disconnected. */
  readonly wsHeartbeatIntervalMs: number;
}

export const MARKET_PLUGIN_DEFAULTS: MarketPluginOptions = Object.freeze({
  wsClientsMax: 10_000,
  // A browser opens one price socket per open chart; 100 covers a trading desk behind one NAT.
  wsClientsPerAddressMax: 100,
  wsBufferedBytesMax: 256 * 1024,
  wsSlowClientTimeoutMs: 10_000,
  wsHeartbeatIntervalMs: 30_000,
});

/**
 * Environment variables for these limits, for a composition root to spread into its config spec
 * and pass through `marketPluginOptions`. Nothing here reads `process.env`.
 */
export const marketConfigSpec = {
  MARKET_WS_CLIENTS_MAX: env.int(MARKET_PLUGIN_DEFAULTS.wsClientsMax, { min: 1, max: 1_000_000 }),
  MARKET_WS_CLIENTS_PER_ADDRESS_MAX: env.int(MARKET_PLUGIN_DEFAULTS.wsClientsPerAddressMax, {
    min: 1,
    max: 1_000_000,
  }),
  MARKET_WS_BUFFERED_BYTES_MAX: env.int(MARKET_PLUGIN_DEFAULTS.wsBufferedBytesMax, {
    min: 1024,
    max: 64 * 1024 * 1024,
  }),
  MARKET_WS_SLOW_CLIENT_TIMEOUT_MS: env.int(MARKET_PLUGIN_DEFAULTS.wsSlowClientTimeoutMs, {
    min: 100,
    max: 600_000,
  }),
};

export type MarketConfig = ConfigOf<typeof marketConfigSpec>;

export function marketPluginOptions(config: MarketConfig): Partial<MarketPluginOptions> {
  return {
    wsClientsMax: config.MARKET_WS_CLIENTS_MAX,
    wsClientsPerAddressMax: config.MARKET_WS_CLIENTS_PER_ADDRESS_MAX,
    wsBufferedBytesMax: config.MARKET_WS_BUFFERED_BYTES_MAX,
    wsSlowClientTimeoutMs: config.MARKET_WS_SLOW_CLIENT_TIMEOUT_MS,
  };
}
