import type { Transaction } from 'kysely';
import { DomainError, type Database } from '@updown/runtime';
import { insertPair, lockPair, setPairActive, setPairFeed, type PairRow } from '../queries/pairs.repository';
import type { NewPair, PairFeedConfig } from './pair-rules.domain';

/**
 * An admin's changes to the pair list. Each runs in the caller's transaction, so the caller's
 * record of the change (the gateway's audit row) commits with it or not at all. Their input has
 * passed `normaliseNewPair` or `normaliseFeed`, which the caller applies before it opens the
 * transaction.
 */

export class PairNotFound extends DomainError {
  constructor(symbol: string) {
    super('NOT_FOUND', `Unknown pair: ${symbol}`);
  }
}

export class PairExists extends DomainError {
  constructor(symbol: string) {
    super('PAIR_EXISTS', `Pair ${symbol} already exists`);
  }
}

/** A pair as it was before a change and as the change left it. */
export interface PairChange {
  readonly before: PairRow;
  readonly after: PairRow;
}

/** Locks a pair for a change; an unknown symbol is refused (a 404 at the edge). */
export async function lockExistingPair(trx: Transaction<Database>, symbol: string): Promise<PairRow> {
  const pair = await lockPair(trx, symbol);
  if (!pair) throw new PairNotFound(symbol);
  return pair;
}

/**
 * Adds a pair at the platform's payout, which the caller read under the settings lock so that a
 * payout change cannot pass it by. A symbol already listed is refused, even under a race.
 */
export async function addPair(
  trx: Transaction<Database>,
  pair: NewPair,
  payoutPct: number,
): Promise<PairRow> {
  const row = await insertPair(trx, { ...pair, payoutPct });
  if (!row) throw new PairExists(pair.symbol);
  return row;
}

/** Replaces a pair's feeds; price-ingest's pairs poll moves the feed over without a restart. */
export async function replacePairFeed(
  trx: Transaction<Database>,
  symbol: string,
  feed: PairFeedConfig,
): Promise<PairChange> {
  const before = await lockExistingPair(trx, symbol);
  return { before, after: await setPairFeed(trx, symbol, feed) };
}

/** Enables or disables a pair; placement refuses a disabled one. */
export async function setPairEnabled(
  trx: Transaction<Database>,
  symbol: string,
  active: boolean,
): Promise<PairChange> {
  const before = await lockExistingPair(trx, symbol);
  return { before, after: await setPairActive(trx, symbol, active) };
}
