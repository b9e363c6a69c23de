import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import type { Database } from './schema';

export interface OfflineDbOptions {
  /** What every query answers; none by default. */
  readonly rows?: readonly Record<string, unknown>[];
  /** Sees each statement as PostgreSQL would receive it (text and parameters). */
  readonly onQuery?: (query: CompiledQuery) => void;
}

/**
 * A PostgreSQL-dialect database that never connects: every query is compiled as for PostgreSQL and
 * answered with `rows`. For work that builds queries without running them (the API document, which
 * registers routes and queries nothing) and for tests that pin the text of a statement.
 */
export function offlineDb(options: OfflineDbOptions = {}): Kysely<Database> {
  const rows = options.rows ?? [];
  const connection: DatabaseConnection = {
    executeQuery: async <R>(query: CompiledQuery) => {
      options.onQuery?.(query);
      return { rows: rows.map((row) => ({ ...row })) as R[] };
    },
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
