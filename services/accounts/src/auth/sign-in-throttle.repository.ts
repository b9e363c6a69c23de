import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { ThrottleState } from './sign-in-throttle.domain';

type Db = Kysely<Database> | Transaction<Database>;
export type FailureKind = 'password' | 'totp';

/** Whose guess an attempt is, and from where: the keys every count is read by. */
export interface ThrottleKey {
  /** The normalised email for passwords (so unknown emails count like real ones), the user id for codes. */
  readonly subject: string;
  readonly kind: FailureKind;
  /** `addressKey` of the client address. */
  readonly address: string;
}

/** PostgreSQL's SQLSTATE for a lock not obtained within `lock_timeout`. */
export const PG_LOCK_NOT_AVAILABLE = '55P03';

/**
 * Serialises attempts that share this address or this account, in every process, until the
 * transaction ends: each one then decides on counts that include every attempt before it (see
 * `recordAttempt`). The address is always locked before the account, so two attempts never wait
 * for each other in a circle. `lockTimeoutMs` bounds the wait of a burst.
 */
export async function lockThrottleKeys(
  trx: Transaction<Database>,
  key: ThrottleKey,
  lockTimeoutMs: number,
): Promise<void> {
  await sql`select set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, true)`.execute(trx);
  await sql`select pg_advisory_xact_lock(hashtextextended(${`sign-in-address:${key.address}`}, 0))`.execute(
    trx,
  );
  await sql`
    select pg_advisory_xact_lock(hashtextextended(${`sign-in-subject:${key.kind}:${key.subject}`}, 0))`.execute(
    trx,
  );
}

interface StateRow {
  pair_failures: number;
  pair_last: Date | null;
  address_ceiling: Date | null;
  account_ceiling: Date | null;
}

/**
 * The counts of `ThrottleState` since `since`, in one round trip. Each read is bounded: the pair
 * count by `pairScanMax`, the ceilings read the one row at their position (`ceilingClearsAt`).
 */
export async function throttleState(
  db: Db,
  key: ThrottleKey,
  query: { since: Date; pairScanMax: number; addressMax: number; accountMax: number },
): Promise<ThrottleState> {
  const { subject, kind, address } = key;
  const { since } = query;
  const result = await sql<StateRow>`
    select
      (select count(*)::int from (
        select 1 from login_failures
        where subject = ${subject} and kind = ${kind} and address = ${address} and occurred_at >= ${since}
        limit ${query.pairScanMax}) as pair) as pair_failures,
      (select max(occurred_at) from login_failures
        where subject = ${subject} and kind = ${kind} and address = ${address} and occurred_at >= ${since}
      ) as pair_last,
      (select occurred_at from login_failures
        where address = ${address} and occurred_at >= ${since}
        order by occurred_at desc offset ${query.addressMax - 1} limit 1) as address_ceiling,
      (select occurred_at from login_failures
        where subject = ${subject} and kind = ${kind} and occurred_at >= ${since}
        order by occurred_at desc offset ${query.accountMax - 1} limit 1) as account_ceiling`.execute(db);
  const row = result.rows[0]!;
  return {
    pairFailures: row.pair_failures,
    pairLastFailureAt: row.pair_last?.getTime() ?? null,
    addressCeilingFailureAt: row.address_ceiling?.getTime() ?? null,
    accountCeilingFailureAt: row.account_ceiling?.getTime() ?? null,
  };
}

/**
 * Records an attempt that is about to be checked, as if it will fail: while its password is being
 * hashed, the attempts after it already count it (under the locks above), so a burst of parallel
 * guesses cannot all be checked. A success clears it with the rest (`clearFailures`); an attempt
 * that could not be checked at all is forgotten (`forgetAttempt`).
 */
export async function recordAttempt(db: Db, key: ThrottleKey, at: Date): Promise<number> {
  const row = await db
    .insertInto('login_failures')
    .values({ subject: key.subject, kind: key.kind, address: key.address, occurred_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function forgetAttempt(db: Db, id: number): Promise<void> {
  await db.deleteFrom('login_failures').where('id', '=', id).execute();
}

/** A success wipes the slate of that account on that address; its failures elsewhere stay. */
export async function clearFailures(db: Db, key: ThrottleKey): Promise<void> {
  await db
    .deleteFrom('login_failures')
    .where('subject', '=', key.subject)
    .where('kind', '=', key.kind)
    .where('address', '=', key.address)
    .execute();
}

/** Deletes up to `limit` rows older than `before`: bounded housekeeping done as attempts arrive. */
export async function pruneFailures(db: Db, before: Date, limit: number): Promise<void> {
  await db
    .deleteFrom('login_failures')
    .where('id', 'in', (eb) =>
      eb.selectFrom('login_failures').select('id').where('occurred_at', '<', before).limit(limit),
    )
    .execute();
}

/**
 * Whether the account has completed a sign-in from the key's address since `since`. The subject is
 * the normalised email for a password and the user id for a code.
 */
export async function isKnownAddress(db: Db, key: ThrottleKey, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom('sign_in_addresses')
    .innerJoin('users', 'users.id', 'sign_in_addresses.user_id')
    .select('sign_in_addresses.user_id')
    .where(key.kind === 'password' ? 'users.email' : 'users.id', '=', key.subject)
    .where('sign_in_addresses.address', '=', key.address)
    .where('sign_in_addresses.last_sign_in_at', '>=', since)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Remembers a completed sign-in from `address`, keeping the account's `keepMax` most recent
 * addresses, and deletes up to `pruneLimit` addresses of any account last used before `staleBefore`.
 */
export async function rememberAddress(
  db: Db,
  entry: { userId: string; address: string; at: Date },
  bounds: { keepMax: number; staleBefore: Date; pruneLimit: number },
): Promise<void> {
  await db
    .insertInto('sign_in_addresses')
    .values({ user_id: entry.userId, address: entry.address, last_sign_in_at: entry.at })
    .onConflict((oc) => oc.columns(['user_id', 'address']).doUpdateSet({ last_sign_in_at: entry.at }))
    .execute();
  await db
    .deleteFrom('sign_in_addresses')
    .where('user_id', '=', entry.userId)
    .where('address', 'not in', (eb) =>
      eb
        .selectFrom('sign_in_addresses')
        .select('address')
        .where('user_id', '=', entry.userId)
        .orderBy('last_sign_in_at', 'desc')
        .limit(bounds.keepMax),
    )
    .execute();
  await db
    .deleteFrom('sign_in_addresses')
    .where(({ eb, selectFrom }) =>
      eb(
        sql`(user_id, address)`,
        'in',
        selectFrom('sign_in_addresses')
          .select(['user_id', 'address'])
          .where('last_sign_in_at', '<', bounds.staleBefore)
          .limit(bounds.pruneLimit),
      ),
    )
    .execute();
}
