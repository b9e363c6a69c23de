import type { Transaction } from 'kysely';
import { lockExistingPair, type PairRow } from '@updown/price-ingest';
import type { Clock, Database } from '@updown/runtime';
import type { PairRiskSettings } from './risk.domain';
import {
  lockPairRiskForChange,
  lockTraderDefaults,
  resumePair,
  traderLimitsOf,
  writePairRiskSettings,
  writeTraderDefaults,
  writeTraderLimits,
  type RiskPairRow,
} from './risk.repository';
import { checkResumable, checkTraderCaps, type TraderCaps } from './risk-settings.domain';

/**
 * The admin's changes of the risk settings (README "Risk controls"). Each runs in the caller's
 * transaction, so the caller's record of who changed what (the gateway's audit row) commits with
 * the change or not at all, and answers the state before and after for that record.
 */

/** A pair's risk row before and after a change, with the pair as it was locked. */
export interface PairRiskChange {
  readonly pair: PairRow;
  readonly before: RiskPairRow;
  readonly after: RiskPairRow;
}

export interface TraderCapsChange<Before> {
  readonly before: Before;
  readonly after: TraderCaps;
}

/**
 * Locks the pair, then its book (level 5 of the wallet's lock protocol, created if missing): a
 * pair that is not there, or is being deleted, gets no settings.
 */
async function lockPairForChange(
  trx: Transaction<Database>,
  symbol: string,
): Promise<{ pair: PairRow; before: RiskPairRow }> {
  const pair = await lockExistingPair(trx, symbol);
  return { pair, before: await lockPairRiskForChange(trx, symbol) };
}

/** Sets a pair's exposure caps, payout skew and loss breaker; the next placement applies them. */
export async function changePairRiskSettings(
  trx: Transaction<Database>,
  symbol: string,
  settings: PairRiskSettings,
): Promise<PairRiskChange> {
  const { pair, before } = await lockPairForChange(trx, symbol);
  const after = await writePairRiskSettings(trx, symbol, settings);
  return { pair, before, after };
}

/**
 * Lifts a suspended pair's loss breaker; its window counts from the minute after the resume. The
 * time is read once the book is held, so a wait for the lock does not date the resume early.
 */
export async function resumePairTrading(
  trx: Transaction<Database>,
  symbol: string,
  clock: Clock,
): Promise<PairRiskChange & { readonly resumedAtMs: number }> {
  const { pair, before } = await lockPairForChange(trx, symbol);
  checkResumable(symbol, before.suspended_at_ms);
  const resumedAtMs = clock.nowMs();
  const after = await resumePair(trx, symbol, resumedAtMs);
  return { pair, before, after, resumedAtMs };
}

/** Sets the default caps on every trader's open real trades. */
export async function changeTraderDefaults(
  trx: Transaction<Database>,
  caps: TraderCaps,
): Promise<TraderCapsChange<TraderCaps>> {
  const before = await lockTraderDefaults(trx);
  await writeTraderDefaults(trx, caps);
  return { before, after: caps };
}

/**
 * Sets a trader's own caps (both null removes them), under the defaults, which stay locked until
 * the caller commits so they cannot be lowered below the new caps meanwhile. The caller knows the
 * user exists: the accounts are not the order service's. `before` is undefined when the trader
 * had no caps of their own.
 */
export async function changeTraderCaps(
  trx: Transaction<Database>,
  userId: string,
  caps: TraderCaps,
): Promise<TraderCapsChange<TraderCaps | undefined>> {
  const defaults = await lockTraderDefaults(trx);
  checkTraderCaps(caps, defaults);
  const before = (await traderLimitsOf(trx, [userId])).get(userId);
  await writeTraderLimits(trx, userId, caps);
  return { before, after: caps };
}
