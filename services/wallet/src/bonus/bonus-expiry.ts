import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { repeatEvery, type Clock, type Database, type Logger } from '@updown/runtime';
import { accountCode, userAccountCode } from '../ledger/ledger.domain';
import { transfer } from '../ledger/ledger.repository';
import { lockAccounts, lockActiveBonuses, lockWallets } from '../locks/lock-protocol';
import { bonusEndAccounts, endLockedBonus } from './bonus.handler';
import { dueBonuses, lastCreditedBonus } from './bonus.repository';

/** Bonuses expired (or orphan balances swept) per run: bounds one run's work and its lock time. */
export const BONUS_EXPIRY_BATCH_MAX = 500;
export const BONUS_EXPIRY_INTERVAL_MS_DEFAULT = 60_000;

export interface BonusExpiryDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly intervalMs?: number;
}

export interface BonusExpiryRun {
  readonly expired: number;
  readonly swept: number;
}

export interface BonusExpiryJob {
  /** Cancels the next run and waits for a run in progress. */
  stop(): Promise<void>;
  runOnce(): Promise<BonusExpiryRun>;
}

/**
 * Expires bonuses past `expires_at` on the clock: status `expired`, remaining bonus balance back
 * to the bonus pool. Each bonus is ended in its own transaction, so one failure does not hold up
 * the rest; a failed run is logged and retried at the next tick. The first run is one interval
 * after start.
 */
export function startBonusExpiry(deps: BonusExpiryDeps): BonusExpiryJob {
  const job = repeatEvery({
    clock: deps.clock,
    intervalMs: deps.intervalMs ?? BONUS_EXPIRY_INTERVAL_MS_DEFAULT,
    name: 'bonus expiry',
    logger: deps.logger,
    task: () => expireAndSweep(deps),
    onResult: (run) => {
      if (run.expired + run.swept > 0) deps.logger.info(run, 'bonus expiry run');
    },
  });
  return { stop: job.stop, runOnce: job.runNow };
}

async function expireAndSweep(deps: BonusExpiryDeps): Promise<BonusExpiryRun> {
  const now = deps.clock.nowMs();
  const due = await dueBonuses(deps.db, new Date(now), BONUS_EXPIRY_BATCH_MAX);
  let expired = 0;
  for (const bonus of due) {
    const ended = await deps.db.transaction().execute(async (trx) => {
      await lockWallets(trx, [bonus.user_id]);
      const active = await lockActiveBonuses(trx, [bonus.user_id]);
      if (!active.some((b) => b.id === bonus.id)) return false;
      const balances = await lockAccounts(trx, bonusEndAccounts(bonus.user_id, bonus.id));
      return endLockedBonus(trx, {
        userId: bonus.user_id,
        bonusId: bonus.id,
        status: 'expired',
        now,
        balances,
      });
    });
    if (ended) expired += 1;
  }
  const swept = await sweepOrphanBonusBalances(deps.db, now);
  return { expired, swept };
}

/**
 * Bonus stakes that were in play when their bonus ended come back to the `bonus` account when the
 * trades settle, after the bonus is closed. This returns such balances: to cash when the last
 * bonus completed (the wagering was met), to the bonus pool when it was forfeited or expired.
 * Users with a bonus stake still in a pending trade wait for the next run: that stake sits in their
 * `bonus_in_play` account until the trade settles, so the wallet knows it without reading trades.
 */
export async function sweepOrphanBonusBalances(db: Kysely<Database>, now: number): Promise<number> {
  const { rows } = await sql<{ owner_id: string }>`
    select a.owner_id from ledger_accounts a
    where a.type = 'bonus' and a.balance > 0
      and not exists (select 1 from bonuses b where b.user_id = a.owner_id and b.status = 'active')
      and not exists (select 1 from ledger_accounts p
                      where p.owner_id = a.owner_id and p.type = 'bonus_in_play' and p.balance > 0)
    order by a.id
    limit ${BONUS_EXPIRY_BATCH_MAX}`.execute(db);
  let swept = 0;
  for (const { owner_id: userId } of rows) {
    const moved = await db.transaction().execute(async (trx) => {
      // The wallet lock keeps deposits (the only source of a new active bonus) out while this decides.
      await lockWallets(trx, [userId]);
      const last = await lastCreditedBonus(trx, userId);
      if (!last || last.status === 'active') return false;
      const key = `bonus:${last.id}:sweep:${randomUUID()}`;
      const toCash = last.status === 'completed';
      const bonusCode = userAccountCode(userId, 'bonus');
      const target = toCash ? userAccountCode(userId, 'real') : accountCode({ system: 'bonus_pool' }, key);
      const balances = await lockAccounts(trx, [bonusCode, target]);
      const amount = balances.get(bonusCode) ?? 0;
      if (amount <= 0) return false;
      await transfer(trx, {
        kind: toCash ? 'bonus_conversion' : 'bonus_forfeit',
        idempotencyKey: key,
        postings: [
          { account: { owner: userId, type: 'bonus' }, amountCents: -amount },
          toCash
            ? { account: { owner: userId, type: 'real' }, amountCents: amount }
            : { account: { system: 'bonus_pool' }, amountCents: amount },
        ],
        ref: { bonusId: last.id, reason: 'sweep' },
        occurredAt: new Date(now),
      });
      return true;
    });
    if (moved) swept += 1;
  }
  return swept;
}
