import type { Kysely } from 'kysely';
import {
  createLogger,
  createMetricsRegistry,
  generateSigningKey,
  ManualClock,
  offlineDb,
  type Database,
} from '@updown/runtime';
import { buildApp } from '../app';
import { loadGatewayConfig } from '../config';
import { gatewayPlugins } from '../features';
import type { GatewayInstance } from '../http/instance';

/** The OpenAPI document as `/docs/json` serves it: plain JSON. */
export type ApiDocument = Record<string, unknown> & {
  readonly openapi: string;
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components: Record<string, Record<string, unknown>>;
};

const offlineBus = {
  subscribe: async () => ({ close: async () => undefined }),
};

export interface DocumentedAppOptions {
  /** Defaults to `offlineDb()`, which answers nothing. */
  readonly db?: Kysely<Database>;
  /**
   * Runs after every plugin is registered and before they load: a hook added to the root here is
   * inherited by every route.
   */
  readonly beforeReady?: (app: GatewayInstance) => void;
}

/**
 * The gateway with every API plugin the platform serves, over a database and bus that do
 * nothing: what `npm run api:types` and the document tests read the OpenAPI document from, with
 * no PostgreSQL and no port. Its plugins come from `gatewayPlugins`, as those of the composition
 * roots (`main.ts`, the platform) do, so the document lists every route they serve.
 */
export async function buildDocumentedApp(options: DocumentedAppOptions = {}): Promise<GatewayInstance> {
  const db = options.db ?? offlineDb();
  const logger = createLogger({ level: 'silent', name: 'api-document' });
  const registry = createMetricsRegistry();
  const clock = new ManualClock(0);
  const app = buildApp({
    config: { CONSOLE_DIR: '/nonexistent', CORS_ORIGINS: [], BODY_LIMIT_BYTES: 1024 * 1024 },
    logger,
    registry,
    db,
    readiness: async () => ({ ok: true, checks: {} }),
    plugins: gatewayPlugins({
      db,
      logger,
      registry,
      clock,
      auth: {
        // The defaults of every auth variable, as a start with an empty environment reads them.
        ...loadGatewayConfig({ UPDOWN_ENV: 'test', DATA_DIR: '/nonexistent' }),
        // Only signs nothing: the document is read, no request is served.
        JWT_SECRET: 'api-document-only-'.padEnd(48, 'x'),
      },
      bus: offlineBus,
      order: {
        placeTrade: async () => {
          throw new Error('the documented app places no trades');
        },
      },
      loadEvidence: async () => ({
        entry_tick: null,
        exit_tick: null,
        entry_window: [],
        exit_window: [],
        reference_check: null,
      }),
      // A throwaway key: the document shows the route, not the key set.
      keySet: generateSigningKey().keySet,
    }),
  });
  options.beforeReady?.(app);
  await app.ready();
  return app;
}

/** The OpenAPI document of the whole API, as served at `/docs/json`. */
export async function buildApiDocument(): Promise<ApiDocument> {
  const app = await buildDocumentedApp();
  try {
    return JSON.parse(JSON.stringify(app.swagger())) as ApiDocument;
  } finally {
    await app.close();
  }
}
