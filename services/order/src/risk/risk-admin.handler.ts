import type { Kysely, Transaction } from 'kysely';
import type { Clock, Database } from '@updown/runtime';
import { findUserById, UserNotFound, writeAudit } from '@updown/accounts';
import type { PairRiskSettings } from './risk.domain';
import { pnlSince, settingsOf, windowPnl, type RiskPairRow } from './risk.repository';
import type { TraderCaps } from './risk-settings.domain';
import {
  changePairRiskSettings,
  changeTraderCaps,
  changeTraderDefaults,
  resumePairTrading,
} from './risk-settings.handler';
import { defaultsView, limitsView, settingsView, utcDayStart } from './risk.view';

/**
 * The admin's risk changes (README "Risk controls"), as the admin API calls them: the commands of
 * `risk-settings.handler.ts` decide and write each change, and each runs here in one transaction
 * with its `admin_audit` row, which records the before and after as the Risk tab shows them.
 */

export interface AdminRiskContext {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
}

/** A pair's risk row after a change, with the house's P/L on it, read in the change's transaction. */
export interface PairRiskState {
  readonly pair: { readonly symbol: string; readonly payout_pct: number };
  readonly row: RiskPairRow;
  readonly pnl: { readonly today: number; readonly window: number };
}

async function readPairRisk(
  trx: Transaction<Database>,
  pair: PairRiskState['pair'],
  row: RiskPairRow,
  nowMs: number,
): Promise<PairRiskState> {
  const [today, window] = await Promise.all([
    pnlSince(trx, utcDayStart(nowMs), [pair.symbol]),
    windowPnl(trx, [row], nowMs),
  ]);
  return { pair, row, pnl: { today: today.get(pair.symbol) ?? 0, window: window.get(pair.symbol) ?? 0 } };
}

/** Sets a pair's exposure caps, payout skew and loss breaker. */
export async function setPairRisk(
  ctx: AdminRiskContext,
  adminId: string,
  symbol: string,
  settings: PairRiskSettings,
): Promise<PairRiskState> {
  return ctx.db.transaction().execute(async (trx) => {
    const { pair, before, after } = await changePairRiskSettings(trx, symbol, settings);
    await writeAudit(trx, {
      actorId: adminId,
      action: 'risk.pair',
      target: symbol,
      before: settingsView(settingsOf(before)),
      after: settingsView(settingsOf(after)),
      at: ctx.clock.nowMs(),
    });
    return readPairRisk(trx, pair, after, ctx.clock.nowMs());
  });
}

/** Lifts a suspended pair's loss breaker: real placements on it are taken again. */
export async function resumeRealTrading(
  ctx: AdminRiskContext,
  adminId: string,
  symbol: string,
): Promise<PairRiskState> {
  return ctx.db.transaction().execute(async (trx) => {
    const { pair, before, after, resumedAtMs } = await resumePairTrading(trx, symbol, ctx.clock);
    await writeAudit(trx, {
      actorId: adminId,
      action: 'risk.resume',
      target: symbol,
      before: { suspended_at_ms: before.suspended_at_ms, suspended_reason: before.suspended_reason },
      after: { suspended_at_ms: null, resumed_at_ms: resumedAtMs },
      at: resumedAtMs,
    });
    return readPairRisk(trx, pair, after, resumedAtMs);
  });
}

/** Sets the default caps on every trader's open real trades; answers them. */
export async function setTraderDefaults(
  ctx: AdminRiskContext,
  adminId: string,
  caps: TraderCaps,
): Promise<TraderCaps> {
  return ctx.db.transaction().execute(async (trx) => {
    const { before, after } = await changeTraderDefaults(trx, caps);
    await writeAudit(trx, {
      actorId: adminId,
      action: 'risk.trader_defaults',
      target: 'traders',
      before: defaultsView(before),
      after: defaultsView(after),
      at: ctx.clock.nowMs(),
    });
    return after;
  });
}

/** Sets a trader's own caps, which the order service holds under the defaults; answers them. */
export async function setTraderLimits(
  ctx: AdminRiskContext,
  adminId: string,
  userId: string,
  caps: TraderCaps,
): Promise<TraderCaps> {
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await findUserById(trx, userId))) throw new UserNotFound();
    const { before, after } = await changeTraderCaps(trx, userId, caps);
    await writeAudit(trx, {
      actorId: adminId,
      action: 'risk.trader_limits',
      target: userId,
      before: limitsView(before),
      after: limitsView(after),
      at: ctx.clock.nowMs(),
    });
    return after;
  });
}
