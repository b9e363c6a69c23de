import { Migrator, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import { migrations } from './migrations/index';

/** Migrations are plain modules listed in `migrations/index.ts`; their names sort in apply order. */
const provider = {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  },
};

export class MigrationFailed extends Error {
  constructor(
    readonly migrationName: string | undefined,
    cause: unknown,
  ) {
    super(
      `Migration ${migrationName ?? '(unknown)'} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
    this.name = 'MigrationFailed';
  }
}

/** Applies every pending migration, each in its own transaction; concurrent callers are serialised by kysely's lock. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    throw new MigrationFailed(failed?.migrationName, result.error);
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has been applied: what `/readyz` checks. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrationsApplied(db: Kysely<any>): Promise<boolean> {
  const migrator = new Migrator({ db, provider });
  const all = await migrator.getMigrations();
  return all.every((m) => m.executedAt !== undefined);
}
