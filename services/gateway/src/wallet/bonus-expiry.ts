import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Clock, Database, Logger } from '@updown/runtime';
import { accountCode, transfer, userAccountCode } from '@updown/wallet';
import { endActiveBonus } from './bonus.handler';
import { lockAccountBalances, lockUser } from './wallet.repository';

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
  const intervalMs = deps.intervalMs ?? BONUS_EXPIRY_INTERVAL_MS_DEFAULT;
  let cancel: (() => void) | undefined;
  let running: Promise<BonusExpiryRun> | undefined;
  let stopped = false;

  const runOnce = (): Promise<BonusExpiryRun> => {
    running ??= expireAndSweep(deps).finally(() => {
      running = undefined;
    });
    return running;
  };

  const schedule = () => {
    if (stopped) return;
    cancel = deps.clock.setTimeout(() => {
      runOnce()
        .then((run) => {
          if (run.expired + run.swept > 0) deps.logger.info(run, 'bonus expiry run');
        })
        .catch((error: unknown) => deps.logger.error({ err: error }, 'bonus expiry run failed'))
        .finally(schedule);
    }, intervalMs);
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      cancel?.();
      await running?.catch(() => undefined);
    },
    runOnce,
  };
}

async function expireAndSweep(deps: BonusExpiryDeps): Promise<BonusExpiryRun> {
  const now = deps.clock.now();
  const due = await deps.db
    .selectFrom('bonuses')
    .select(['id', 'user_id'])
    .where('status', '=', 'active')
    .where('expires_at', '<=', new Date(now))
    .orderBy('expires_at')
    .limit(BONUS_EXPIRY_BATCH_MAX)
    .execute();
  let expired = 0;
  for (const bonus of due) {
    const ended = await deps.db.transaction().execute(async (trx) => {
      await lockUser(trx, bonus.user_id);
      return endActiveBonus(trx, { userId: bonus.user_id, status: 'expired', now, bonusId: bonus.id });
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
 * Users with a bonus stake still in a pending trade wait for the next run.
 */
export async function sweepOrphanBonusBalances(db: Kysely<Database>, now: number): Promise<number> {
  const { rows } = await sql<{ owner_id: string }>`
    select a.owner_id from ledger_accounts a
    where a.type = 'bonus' and a.balance > 0
      and not exists (select 1 from bonuses b where b.user_id = a.owner_id and b.status = 'active')
      and not exists (select 1 from trades t where t.user_id = a.owner_id and t.status = 'pending'
                      and t.stake_bonus_cents > 0)
    order by a.id
    limit ${BONUS_EXPIRY_BATCH_MAX}`.execute(db);
  let swept = 0;
  for (const { owner_id: userId } of rows) {
    const moved = await db.transaction().execute(async (trx) => {
      await lockUser(trx, userId);
      const last = await trx
        .selectFrom('bonuses')
        .select(['id', 'status'])
        .where('user_id', '=', userId)
        .orderBy('credited_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!last || last.status === 'active') return false;
      const key = `bonus:${last.id}:sweep:${randomUUID()}`;
      const toCash = last.status === 'completed';
      const bonusCode = userAccountCode(userId, 'bonus');
      const target = toCash ? userAccountCode(userId, 'real') : accountCode({ system: 'bonus_pool' }, key);
      const balances = await lockAccountBalances(trx, [bonusCode, target]);
      const amount = balances.get(bonusCode) ?? 0;
      if (amount <= 0) return false;
      await transfer(trx, {
        kind: toCash ? 'bonus_conversion' : 'bonus_forfeit',
        idempotencyKey: key,
        postings: [
          { account: { owner: userId, type: 'bonus' }, amount: -amount },
          toCash
            ? { account: { owner: userId, type: 'real' }, amount }
            : { account: { system: 'bonus_pool' }, amount },
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
