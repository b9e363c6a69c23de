import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

/** Reads behind the trade routes. Writes belong to the order and settlement services. */

export function listActiveTrades(db: Kysely<Database>, userId: string, nowMs: number, limit: number) {
  return db
    .selectFrom('trades')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .where('expiry_ts', '>', nowMs)
    .orderBy('expiry_ts')
    .limit(limit)
    .execute();
}

export function listTradeHistory(db: Kysely<Database>, userId: string, limit: number) {
  return db
    .selectFrom('trades')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function findTrade(db: Kysely<Database>, id: string) {
  return db.selectFrom('trades').selectAll().where('id', '=', id).executeTakeFirst();
}
