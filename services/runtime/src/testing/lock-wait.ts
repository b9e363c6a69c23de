import { sql, type Kysely } from 'kysely';
import { waitFor } from '../bus/testing/wait-for';

/**
 * Resolves once some session of `db`'s database waits for a row or transaction lock: how a test
 * knows a command it started is now blocked behind the locks it holds, without a fixed sleep.
 */
export function someoneWaitsForALock<DB>(db: Kysely<DB>, timeoutMs = 10_000): Promise<void> {
  return waitFor(
    async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
      return rows[0]!.n > 0;
    },
    { timeoutMs, what: 'a session waiting for a lock' },
  );
}
