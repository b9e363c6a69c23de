import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import { migrations as runtimeOwn } from './migrations/index';

/**
 * Every package that owns tables, in the order their migrations run: the floors of the house,
 * bottom up, so a foreign key always points at a table already there. Accounts come right after the
 * runtime because `users`, which the wallet's and order's tables reference, is theirs.
 */
export const MIGRATION_OWNERS = [
  'runtime',
  'accounts',
  'price-ingest',
  'wallet',
  'order',
  'settlement',
] as const;

export type MigrationOwner = (typeof MIGRATION_OWNERS)[number];

/** One package's migrations, by name; a package exports its set from its entry point. */
export interface MigrationSet {
  readonly owner: MigrationOwner;
  readonly migrations: Readonly<Record<string, Migration>>;
}

export const runtimeMigrations: MigrationSet = { owner: 'runtime', migrations: runtimeOwn };

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

/** kysely's own advisory lock key, so this run and a plain kysely migrator never interleave. */
const MIGRATION_LOCK_KEY = BigInt('3853314791062309107');

/** The sets in package order, refusing an unknown or repeated owner and a name two sets share. */
function ordered(sets: readonly MigrationSet[]): MigrationSet[] {
  const names = new Map<string, MigrationOwner>();
  for (const set of sets) {
    if (!MIGRATION_OWNERS.includes(set.owner)) throw new Error(`unknown migration owner ${set.owner}`);
    if (sets.filter((other) => other.owner === set.owner).length > 1)
      throw new Error(`migrations of ${set.owner} given twice`);
    for (const name of Object.keys(set.migrations)) {
      const other = names.get(name);
      if (other) throw new Error(`migration ${name} belongs to both ${other} and ${set.owner}`);
      names.set(name, set.owner);
    }
  }
  return [...sets].sort((a, b) => MIGRATION_OWNERS.indexOf(a.owner) - MIGRATION_OWNERS.indexOf(b.owner));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function executedNames(db: Kysely<any>): Promise<string[]> {
  // Before the first migration the history table does not exist yet (42P01: undefined table).
  const found = await sql<{ name: string }>`select name from kysely_migration`
    .execute(db)
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === '42P01') return { rows: [] };
      throw error;
    });
  return found.rows.map((row) => row.name);
}

/**
 * Applies every pending migration of the given sets, one package after another in
 * `MIGRATION_OWNERS` order (each package's pending migrations by name, in one transaction), and
 * returns the names applied. All packages share kysely's history table, so a package's run also
 * lists the migrations other packages have already applied (kysely refuses a history naming
 * migrations it does not know) and allows pending names that sort before applied ones (a package's
 * first migration may be named before another package's last).
 *
 * Given every owner, a history naming a migration no package has is refused, as kysely does. Given
 * only some (a service running alone migrates the packages it depends on), the history may name the
 * other owners' migrations.
 *
 * The whole run holds kysely's migration lock on one connection, so concurrent callers are
 * serialised and never see each other half way.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>, sets: readonly MigrationSet[]): Promise<string[]> {
  const runs = ordered(sets);
  const complete = MIGRATION_OWNERS.every((owner) => sets.some((set) => set.owner === owner));
  const known = Object.assign({}, ...sets.map((set) => set.migrations)) as Record<string, Migration>;
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(connection);
    try {
      const applied: string[] = [];
      for (const set of runs) {
        const history: Record<string, Migration> = {};
        for (const name of await executedNames(connection)) {
          if (name in set.migrations) continue;
          const migration = known[name] ?? (complete ? undefined : { up: async () => undefined });
          if (migration) history[name] = migration;
        }
        const provider = { getMigrations: async () => ({ ...history, ...set.migrations }) };
        const migrator = new Migrator({ db: connection, provider, allowUnorderedMigrations: true });
        const result: MigrationResultSet = await migrator.migrateToLatest();
        if (result.error) {
          const failed = result.results?.find((r) => r.status === 'Error');
          throw new MigrationFailed(failed?.migrationName, result.error);
        }
        for (const r of result.results ?? []) if (r.status === 'Success') applied.push(r.migrationName);
      }
      return applied;
    } finally {
      await sql`select pg_advisory_unlock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(connection);
    }
  });
}

/** True when every migration of the given sets has been applied: what `/readyz` checks. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrationsApplied(db: Kysely<any>, sets: readonly MigrationSet[]): Promise<boolean> {
  const executed = new Set(await executedNames(db));
  return sets.every((set) => Object.keys(set.migrations).every((name) => executed.has(name)));
}
