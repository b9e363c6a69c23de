import { sql, type Kysely } from 'kysely';
import { repeatEvery, type Clock, type Database, type Logger, type Repeating } from '@updown/runtime';
import { IDENTITY_RETENTION_YEARS } from '@updown/schemas/api';

/**
 * Identity retention (README "Identity verification"; the AML policy): documents and submissions
 * are kept while the account is open and for five years after it closes, then deleted. This job is
 * the only deleter, and the database refuses it anything earlier (the `identity_retention_guard`
 * trigger compares with its own clock), so a wrong clock here fails the pass instead of deleting.
 */

const DAY_MS = 86_400_000;

/** The latest closing time whose data may go: five calendar years before `nowMs`. */
export function retentionCutoff(nowMs: number): Date {
  const cutoff = new Date(nowMs);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - IDENTITY_RETENTION_YEARS);
  return cutoff;
}

/** Deletes the identity data of accounts closed at least five years ago; answers how many users' data went. */
export async function purgeExpiredIdentityData(db: Kysely<Database>, nowMs: number): Promise<number> {
  const cutoff = retentionCutoff(nowMs);
  return db.transaction().execute(async (trx) => {
    const users = await trx
      .selectFrom('users')
      .select('id')
      .where('closed_at', 'is not', null)
      .where('closed_at', '<=', cutoff)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('identity_documents')
            .select(sql`1`.as('one'))
            .whereRef('identity_documents.user_id', '=', 'users.id'),
        ),
      )
      .limit(1_000)
      .execute();
    const ids = users.map((u) => u.id);
    if (ids.length === 0) return 0;
    await trx.deleteFrom('identity_submissions').where('user_id', 'in', ids).execute();
    await trx.deleteFrom('identity_documents').where('user_id', 'in', ids).execute();
    return ids.length;
  });
}

/** Runs the purge once a day. */
export function startIdentityRetention(deps: {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
}): Repeating<number> {
  return repeatEvery({
    clock: deps.clock,
    intervalMs: DAY_MS,
    name: 'identity retention',
    logger: deps.logger,
    task: () => purgeExpiredIdentityData(deps.db, deps.clock.nowMs()),
    onResult: (purged) => {
      if (purged > 0) deps.logger.info({ purged }, 'identity data past its retention deleted');
    },
  });
}
