import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import { createLogger, createMetricsRegistry, ManualClock, type Database } from '@updown/runtime';
import { createAdminPlugin } from '../admin/admin.routes';
import { buildApp } from '../app';
import { createAuthPlugin } from '../auth/auth.plugin';
import { loadGatewayConfig } from '../config';
import { createLeaderboardPlugin } from '../leaderboard/leaderboard.routes';
import { createMarketPlugin } from '../market/market.plugin';
import { createTradesPlugin } from '../trades/trades.routes';
import { createWalletPlugin } from '../wallet/wallet.routes';
import type { GatewayInstance } from './instance';

/** The OpenAPI document as `/docs/json` serves it: plain JSON. */
export type ApiDocument = Record<string, unknown> & {
  readonly openapi: string;
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components: Record<string, Record<string, unknown>>;
};

/**
 * A database that answers every query with `rows` and never connects: building the document
 * registers routes and queries nothing (no rows). A test that must get past a hook which reads one
 * row, such as the admin role check, passes the row it needs.
 */
export function offlineDb(rows: readonly Record<string, unknown>[] = []): Kysely<Database> {
  const connection: DatabaseConnection = {
    executeQuery: async <R>() => ({ rows: rows.map((row) => ({ ...row })) as R[] }),
    streamQuery: () => {
      throw new Error('the offline database streams nothing');
    },
  };
  const driver: Driver = {
    init: async () => undefined,
    acquireConnection: async () => connection,
    beginTransaction: async () => undefined,
    commitTransaction: async () => undefined,
    rollbackTransaction: async () => undefined,
    releaseConnection: async () => undefined,
    destroy: async () => undefined,
  };
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

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
 * no PostgreSQL and no port. The composition roots (`main.ts`, the platform) register the same
 * plugins; `api-document.test.ts` checks that the route tables agree.
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
    plugins: [
      createAuthPlugin({
        db,
        logger,
        clock,
        config: {
          // The defaults of every auth variable, as a start with an empty environment reads them.
          ...loadGatewayConfig({ UPDOWN_ENV: 'test', DATA_DIR: '/nonexistent' }),
          // Only signs nothing: the document is read, no request is served.
          JWT_SECRET: 'api-document-only-'.padEnd(48, 'x'),
        },
      }),
      createMarketPlugin({ db, bus: offlineBus, logger, registry, clock }),
      createTradesPlugin({
        db,
        clock,
        order: {
          placeTrade: async () => {
            throw new Error('the documented app places no trades');
          },
        },
        loadEvidence: async () => ({ entry_tick: null, exit_tick: null, entry_window: [], exit_window: [] }),
      }),
      createWalletPlugin({ db, clock }),
      createAdminPlugin({ db, clock }),
      createLeaderboardPlugin({ db, clock }),
    ],
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
