import type { Kysely, Transaction } from 'kysely';
import {
  addPair,
  normaliseFeed,
  normaliseNewPair,
  readPair,
  replacePairFeed,
  setPairEnabled,
  type FeedInput,
  type NewPairInput,
} from '@updown/price-ingest';
import type { Clock, Database } from '@updown/runtime';
import type { MarketPair } from '@updown/schemas/api';
import { lockPlatformSettings } from '@updown/wallet';
import { writeAudit } from '@updown/accounts';
import { withRiskQuotes } from '../risk/risk.queries';
import { deletePair } from './delete-pair.handler';

/**
 * An admin's changes to the pair list, as the admin API calls them. The pair and feed rules and
 * the changes are price-ingest's (deletion is this package's, which knows the pending trades); the
 * pair comes back with the payouts its risk settings offer, which are this package's too. Each runs
 * here in one transaction with its `admin_audit` row, so no change commits unrecorded. The input
 * meets price-ingest's rules before the transaction opens: input they refuse takes no lock.
 */

export interface AdminDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
}

/** The pair as the admin screens show it: its feed status and the payouts its risk settings offer. */
async function pairView(trx: Transaction<Database>, symbol: string, nowMs: number): Promise<MarketPair> {
  return (await withRiskQuotes(trx, [(await readPair(trx, symbol, nowMs))!]))[0]!;
}

/** Replaces a pair's feed and reference feed. */
export async function changePairFeed(
  deps: AdminDeps,
  actorId: string,
  symbol: string,
  input: FeedInput,
): Promise<MarketPair> {
  const feed = normaliseFeed(input);
  return deps.db.transaction().execute(async (trx) => {
    const { before, after } = await replacePairFeed(trx, symbol, feed);
    await writeAudit(trx, {
      actorId,
      action: 'pair.feed',
      target: symbol,
      before,
      after,
      at: deps.clock.nowMs(),
    });
    return pairView(trx, symbol, deps.clock.nowMs());
  });
}

/**
 * Adds a pair at the platform's payout. The settings row is locked first: a payout change running
 * at the same time either sees the new pair or has already set the payout it is created with.
 */
export async function createPair(deps: AdminDeps, actorId: string, input: NewPairInput): Promise<MarketPair> {
  const pair = normaliseNewPair(input);
  return deps.db.transaction().execute(async (trx) => {
    const settings = await lockPlatformSettings(trx);
    const row = await addPair(trx, pair, settings.payout_pct);
    await writeAudit(trx, {
      actorId,
      action: 'pair.create',
      target: pair.symbol,
      before: null,
      after: row,
      at: deps.clock.nowMs(),
    });
    return pairView(trx, pair.symbol, deps.clock.nowMs());
  });
}

/** Enables or disables a pair. */
export async function changePairActive(
  deps: AdminDeps,
  actorId: string,
  symbol: string,
  active: boolean,
): Promise<MarketPair> {
  return deps.db.transaction().execute(async (trx) => {
    const { before, after } = await setPairEnabled(trx, symbol, active);
    await writeAudit(trx, {
      actorId,
      action: 'pair.update',
      target: symbol,
      before,
      after,
      at: deps.clock.nowMs(),
    });
    return pairView(trx, symbol, deps.clock.nowMs());
  });
}

/** Deletes a pair that has no pending trades, with its risk settings and book. */
export async function removePair(deps: AdminDeps, actorId: string, symbol: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await deletePair(trx, symbol);
    await writeAudit(trx, {
      actorId,
      action: 'pair.delete',
      target: symbol,
      before,
      after: null,
      at: deps.clock.nowMs(),
    });
  });
}
